import { Module } from '@nestjs/common';
import type { MiddlewareConsumer, NestModule } from '@nestjs/common';

import { AlertsModule } from '../alerts/alerts.module';
import { ErrorTrackingCoreModule } from '../error-tracking-core.module';
import { WebSessionsRepository } from './sessions/web-sessions.repository';
import { WebSessionsService } from './sessions/web-sessions.service';
import { WebAlertsController } from './web-alerts.controller';
import { WebAssetsController } from './web-assets.controller';
import { WebContextMiddleware } from './web-context';
import { WebErrorsController } from './web-errors.controller';
import { webForm } from './web-form.middleware';
import { WebIssuesController } from './web-issues.controller';
import { WebProjectsController } from './web-projects.controller';
import { WebSessionController } from './web-session.controller';

/** The pages (HTML; sessions, CSRF and security headers). */
const PAGE_CONTROLLERS = [
  WebSessionController,
  WebProjectsController,
  WebAlertsController,
  WebErrorsController,
  WebIssuesController,
];

/**
 * The web UI: server-rendered pages over the same services as the API, and
 * its two static assets (served without the session middleware).
 */
@Module({
  imports: [ErrorTrackingCoreModule, AlertsModule],
  controllers: [...PAGE_CONTROLLERS, WebAssetsController],
  providers: [WebSessionsRepository, WebSessionsService, WebContextMiddleware],
})
export class WebModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(webForm(), WebContextMiddleware)
      .forRoutes(...PAGE_CONTROLLERS);
  }
}
