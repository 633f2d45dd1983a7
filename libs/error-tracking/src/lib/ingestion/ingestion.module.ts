import { Module } from '@nestjs/common';

import { ErrorTrackingCoreModule } from '../core/error-tracking-core.module';
import { CollectorController } from './collector.controller';
import { IngestionQueue } from './ingestion-queue';
import { IngestionMetrics } from './ingestion.metrics';
import { IngestionRepository } from './ingestion.repository';
import { IngestionService } from './ingestion.service';
import { CollectorSpool } from './spool/collector-spool';
import { SpoolDrainer } from './spool/spool-drainer';

/**
 * The Sentry collector: requests in, events normalised, resolved and
 * grouped, written by the group-commit flush (or, while the database does
 * not answer, by the spool, which the drainer empties into it later). The
 * collector reads its bodies itself (raw, any encoding), so no body
 * middleware.
 */
@Module({
  imports: [ErrorTrackingCoreModule],
  controllers: [CollectorController],
  providers: [
    IngestionMetrics,
    IngestionRepository,
    CollectorSpool,
    IngestionQueue,
    IngestionService,
    SpoolDrainer,
  ],
})
export class IngestionModule {}
