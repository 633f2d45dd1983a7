import { Module } from '@nestjs/common';

import { ErrorTrackingCoreModule } from '../core/error-tracking-core.module';
import { CollectorController } from './collector.controller';
import { IngestionQueue } from './ingestion-queue';
import { IngestionMetrics } from './ingestion.metrics';
import { IngestionRepository } from './ingestion.repository';
import { IngestionService } from './ingestion.service';

/**
 * The Sentry collector: requests in, events normalised, resolved and
 * grouped, written by the group-commit flush. The collector reads its
 * bodies itself (raw, any encoding), so no body middleware.
 */
@Module({
  imports: [ErrorTrackingCoreModule],
  controllers: [CollectorController],
  providers: [
    IngestionMetrics,
    IngestionRepository,
    IngestionQueue,
    IngestionService,
  ],
})
export class IngestionModule {}
