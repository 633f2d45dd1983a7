import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';

/**
 * The error-tracking context (GitLab integrated error tracking over the
 * Sentry protocol). Expects the gateway to register the
 * `ERROR_TRACKING_DATA_SOURCE` connection and `CLOCK`.
 */
@Module({})
export class ErrorTrackingModule {
  static forRoot(): DynamicModule {
    return { module: ErrorTrackingModule };
  }
}
