import { Module, RequestMethod } from '@nestjs/common';
import type { MiddlewareConsumer, NestModule } from '@nestjs/common';

import { AlertsModule } from '../alerts/alerts.module';
import { WebAlertsController } from '../alerts/web-alerts.controller';
import { ErrorTrackingCoreModule } from '../error-tracking-core.module';
import { WebErrorsController } from '../errors/web-errors.controller';
import { WebIssuesController } from '../issues/web-issues.controller';
import { WebProjectsController } from '../projects/web-projects.controller';
import { WebSettingsController } from '../settings/web-settings.controller';
import { WebSessionsRepository } from '../web/sessions/web-sessions.repository';
import { WebSessionsService } from '../web/sessions/web-sessions.service';
import { WebAssetsController } from '../web/web-assets.controller';
import { WebContextMiddleware } from '../web/web-context';
import { webForm } from '../web/web-form.middleware';
import { WEB_PAGE_PATHS } from '../web/web-paths';
import { WebPasswordController } from '../web/web-password.controller';
import { WebSessionController } from '../web/web-session.controller';

/** The pages (HTML; sessions, CSRF and security headers). */
const PAGE_CONTROLLERS = [
  WebSessionController,
  WebPasswordController,
  WebProjectsController,
  WebSettingsController,
  WebAlertsController,
  WebErrorsController,
  WebIssuesController,
];

/**
 * The web UI: server-rendered pages over the same services as the API, and
 * its two static assets (served without the session middleware). Each page
 * controller sits in its feature's folder, beside the service it calls; the
 * toolkit they share (layout, sessions, CSRF) is `web/`. This module sits
 * above both, as `GitLabApiModule` does for the API's controllers.
 */
@Module({
  imports: [ErrorTrackingCoreModule, AlertsModule],
  controllers: [...PAGE_CONTROLLERS, WebAssetsController],
  providers: [WebSessionsRepository, WebSessionsService, WebContextMiddleware],
})
export class WebUiModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // By path, not by controller: Nest adds a router layer per route and
    // middleware, and every request of every context walks those layers
    // before it reaches its own handler.
    consumer
      .apply(webForm(), WebContextMiddleware)
      .forRoutes(
        ...WEB_PAGE_PATHS.map((path) => ({ path, method: RequestMethod.ALL })),
      );
  }
}
