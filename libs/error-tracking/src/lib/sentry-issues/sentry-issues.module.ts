import { Module } from '@nestjs/common';

import { ErrorTrackingCoreModule } from '../core/error-tracking-core.module';
import { SentryIssuesController } from './sentry-issues.controller';
import { SentryIssuesService } from './sentry-issues.service';

/**
 * Sentry's issue API (`/api/0/`) over the grouped errors, for sentry-cli's
 * `issues` commands. The hostile-input check on `/api/0/` is the source
 * maps module's, which covers these routes too.
 */
@Module({
  imports: [ErrorTrackingCoreModule],
  controllers: [SentryIssuesController],
  providers: [SentryIssuesService],
})
export class SentryIssuesModule {}
