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
 * Alert settings, hooks and delivery. The REST controllers of hooks and
 * alert rules are the API area's and the Alerts forms the web UI's: both
 * reach it through `AlertsService` (an area-to-area import the layer rule
 * allows, since a test send and sealing a token are delivery).
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
