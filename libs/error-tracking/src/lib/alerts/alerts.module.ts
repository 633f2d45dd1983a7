import { Module } from '@nestjs/common';

import { ErrorTrackingCoreModule } from '../core/error-tracking-core.module';
import { AlertComposer } from './alert-content';
import { AlertLinks } from './alert-links';
import { AlertMailer } from './alert-mailer';
import { AlertsKeyCheck } from './alerts-key-check';
import { AlertsRepository } from './alerts.repository';
import { AlertsService } from './alerts.service';
import { AlertsWorker } from './alerts-worker';
import { WebhookDispatcher } from './webhook-dispatcher';

/**
 * Alert settings, hooks and delivery. Its REST controllers belong to the
 * GitLab API module and its pages to the web module: both reach it through
 * `AlertsService`.
 */
@Module({
  imports: [ErrorTrackingCoreModule],
  providers: [
    AlertsRepository,
    AlertLinks,
    AlertComposer,
    AlertMailer,
    WebhookDispatcher,
    AlertsKeyCheck,
    AlertsService,
    AlertsWorker,
  ],
  exports: [AlertsService],
})
export class AlertsModule {}
