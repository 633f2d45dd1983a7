import { Module } from '@nestjs/common';
import type { DynamicModule, INestApplicationContext } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';

import { RootBootstrapService } from '../accounts/root-bootstrap.service';
import { AlertsModule } from '../alerts/alerts.module';
import { ErrorTrackingOptionsModule } from '../core/error-tracking-options.module';
import type { ErrorTrackingModuleOptions } from '../common/error-tracking.options';
import { GitLabApiModule } from '../api/gitlab-api.module';
import { IngestionModule } from '../ingestion/ingestion.module';
import { RetentionModule } from '../retention/retention.module';
import { SentryIssuesModule } from '../sentry-issues/sentry-issues.module';
import { SourcemapsModule } from '../sourcemaps/sourcemaps.module';
import { WebUiModule } from '../web-ui/web-ui.module';

/**
 * The error-tracking context (GitLab integrated error tracking over the
 * Sentry protocol): one module per area, see README "Modules". Expects the
 * gateway to register the `ERROR_TRACKING_DATA_SOURCE` connection, `CLOCK`
 * and `METRICS_REGISTRY`.
 */
@Module({})
export class ErrorTrackingModule {
  static forRoot(options: ErrorTrackingModuleOptions): DynamicModule {
    return {
      module: ErrorTrackingModule,
      // Routes register in this order: the collector, sentry-cli's API,
      // GitLab's API, then the web UI.
      imports: [
        ErrorTrackingOptionsModule.forRoot(options),
        ScheduleModule.forRoot(),
        IngestionModule,
        SourcemapsModule,
        SentryIssuesModule,
        GitLabApiModule,
        WebUiModule,
        AlertsModule,
        RetentionModule,
      ],
    };
  }
}

/**
 * First-boot work for the gateway: the admin `root` and its token. Returns
 * the generated secrets (to record in DATA_DIR/initial-credentials.json).
 */
export function bootstrapErrorTracking(
  app: INestApplicationContext,
): Promise<Record<string, string> | undefined> {
  return app.get(RootBootstrapService, { strict: false }).run();
}

/**
 * Names of recorded first-boot credentials that no longer work (root's
 * generated password once root chose one), for the gateway to remove.
 */
export function retiredErrorTrackingCredentials(
  app: INestApplicationContext,
): Promise<string[]> {
  return app.get(RootBootstrapService, { strict: false }).retired();
}
