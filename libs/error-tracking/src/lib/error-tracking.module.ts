import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';

import { ERROR_TRACKING_OPTIONS } from './error-tracking.constants';
import type { ErrorTrackingModuleOptions } from './error-tracking.options';
import { ClientKeyCache } from './ingestion/client-key-cache';
import { CollectorController } from './ingestion/collector.controller';
import { IngestionQueue } from './ingestion/ingestion-queue';
import { IngestionMetrics } from './ingestion/ingestion.metrics';
import { IngestionRepository } from './ingestion/ingestion.repository';
import { IngestionService } from './ingestion/ingestion.service';

/** Providers of the collector (also used by specs without HTTP). */
export const INGESTION_PROVIDERS = [
  ClientKeyCache,
  IngestionMetrics,
  IngestionRepository,
  IngestionQueue,
  IngestionService,
];

/**
 * The error-tracking context (GitLab integrated error tracking over the
 * Sentry protocol). Expects the gateway to register the
 * `ERROR_TRACKING_DATA_SOURCE` connection, `CLOCK` and `METRICS_REGISTRY`.
 */
@Module({})
export class ErrorTrackingModule {
  static forRoot(options: ErrorTrackingModuleOptions): DynamicModule {
    return {
      module: ErrorTrackingModule,
      controllers: [CollectorController],
      providers: [
        { provide: ERROR_TRACKING_OPTIONS, useValue: options },
        ...INGESTION_PROVIDERS,
      ],
    };
  }
}
