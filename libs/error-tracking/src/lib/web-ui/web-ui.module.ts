import { Module, RequestMethod } from '@nestjs/common';
import type { MiddlewareConsumer, NestModule } from '@nestjs/common';

import { AlertsModule } from '../alerts/alerts.module';
import { WebAlertsController } from './pages/web-alerts.controller';
import { ErrorTrackingCoreModule } from '../core/error-tracking-core.module';
import { WebAttachmentsController } from './pages/web-attachments.controller';
import { WebErrorTriageController } from './pages/web-error-triage.controller';
import { WebErrorsController } from './pages/web-errors.controller';
import { WebEventsController } from './pages/web-events.controller';
import { WebIssuesController } from './pages/web-issues.controller';
import { WebProjectsController } from './pages/web-projects.controller';
import { WebSettingsController } from './pages/web-settings.controller';
import { MonitorPageRenderer } from './pages/monitor-page.renderer';
import { WebSessionsRepository } from '../sessions/web-sessions.repository';
import { WebSessionsService } from '../sessions/web-sessions.service';
import { WebAssetsController } from './pages/web-assets.controller';
import { WebContextMiddleware } from './toolkit/web-context';
import { webForm } from './toolkit/web-form.middleware';
import { WEB_PAGE_PATHS } from './toolkit/web-paths';
import { WebPasswordController } from './pages/web-password.controller';
import { WebSessionController } from './pages/web-session.controller';

/** The pages (HTML; sessions, CSRF and security headers). */
const PAGE_CONTROLLERS = [
  WebSessionController,
  WebPasswordController,
  WebProjectsController,
  WebSettingsController,
  WebAlertsController,
  WebErrorsController,
  WebEventsController,
  WebAttachmentsController,
  WebErrorTriageController,
  WebIssuesController,
];

/**
 * The web UI: server-rendered pages over the same services as the API, and
 * its two static assets (served without the session middleware). Page
 * controllers, pages and views are in `pages/`, what they share (layout,
 * context, CSRF) in `toolkit/`; the services they call are the domain's.
 */
@Module({
  imports: [ErrorTrackingCoreModule, AlertsModule],
  controllers: [...PAGE_CONTROLLERS, WebAssetsController],
  providers: [
    WebSessionsRepository,
    WebSessionsService,
    WebContextMiddleware,
    MonitorPageRenderer,
  ],
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
