import { Module } from '@nestjs/common';

import { RetentionRepository } from './retention.repository';
import { RetentionService } from './retention.service';

/**
 * Retention and its schedule (`SchedulerRegistry` comes from the root
 * module's `ScheduleModule`); the CLI's `retention:run` uses the service.
 */
@Module({
  providers: [RetentionRepository, RetentionService],
  exports: [RetentionService],
})
export class RetentionModule {}
