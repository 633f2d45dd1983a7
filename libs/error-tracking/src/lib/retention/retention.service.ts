import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CLOCK, inBackground } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { ERROR_TRACKING_OPTIONS } from '../common/error-tracking.constants';
import type { ErrorTrackingModuleOptions } from '../common/error-tracking.options';
import { RetentionRepository } from './retention.repository';
import type { RetentionResult } from './retention.repository';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** The first scheduled run waits this long after boot. */
const FIRST_RUN_DELAY_MS = MINUTE_MS;

/**
 * Retention: events older than `retentionDays` go, and errors left without
 * events with them. Scheduled every `retentionIntervalMinutes` (at least
 * hourly by default); replicas share one run per interval (advisory lock
 * plus the last run's time in the database).
 */
@Injectable()
export class RetentionService implements OnApplicationBootstrap {
  private readonly logger = new Logger('ErrorTrackingRetention');

  constructor(
    private readonly repository: RetentionRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ERROR_TRACKING_OPTIONS)
    private readonly options: ErrorTrackingModuleOptions,
    private readonly scheduler: SchedulerRegistry,
  ) {}

  onApplicationBootstrap(): void {
    const minutes = this.options.retentionIntervalMinutes;
    if (minutes <= 0) return;
    const tick = () =>
      inBackground(this.runScheduled(), (error) =>
        this.logger.error({ err: error }, 'Scheduled retention run failed'),
      );
    const first = setTimeout(tick, FIRST_RUN_DELAY_MS);
    first.unref();
    this.scheduler.addTimeout('error-tracking-retention-first', first);
    const every = setInterval(tick, minutes * MINUTE_MS);
    every.unref();
    this.scheduler.addInterval('error-tracking-retention', every);
  }

  /** Runs now unless another replica ran within the interval (`force` skips that). */
  async run(force = false): Promise<RetentionResult> {
    const now = this.clock.now();
    const cutoff = new Date(
      now.getTime() - this.options.retentionDays * DAY_MS,
    );
    const gap = force
      ? 0
      : Math.max(0, this.options.retentionIntervalMinutes - 1) * MINUTE_MS;
    const result = await this.repository.run(now, cutoff, gap);
    if (result.ran)
      this.logger.log(
        {
          cutoff: cutoff.toISOString(),
          expiredEvents: result.expiredEvents,
          droppedPartitions: result.droppedPartitions.length,
          deletedErrors: result.deletedErrors,
          deletedArtifactBundles: result.deletedArtifactBundles,
        },
        'Retention ran',
      );
    return result;
  }

  private async runScheduled(): Promise<void> {
    try {
      await this.run();
    } catch (error) {
      this.logger.error(
        { err: error },
        'Retention failed; the next run will retry',
      );
    }
  }
}
