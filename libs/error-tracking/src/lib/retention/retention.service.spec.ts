import { Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { FixedClock } from '@quitanda/kernel';

import type { ErrorTrackingModuleOptions } from '../common/error-tracking.options';
import type { RetentionRepository } from './retention.repository';
import { RetentionService } from './retention.service';

const MINUTE_MS = 60_000;
const NOW = '2026-06-01T12:00:00.000Z';

function setUp(retentionIntervalMinutes: number) {
  const run = jest.fn<
    ReturnType<RetentionRepository['run']>,
    Parameters<RetentionRepository['run']>
  >(async (_now, cutoff) => ({
    ran: true,
    cutoff,
    expiredEvents: 0,
    droppedPartitions: [],
    deletedErrors: 0,
    deletedArtifactBundles: 0,
  }));
  const scheduler = new SchedulerRegistry();
  const options = {
    retentionDays: 90,
    retentionIntervalMinutes,
  } as ErrorTrackingModuleOptions;
  const service = new RetentionService(
    { run } as unknown as RetentionRepository,
    new FixedClock(NOW),
    options,
    scheduler,
  );
  return { run, scheduler, service };
}

describe('RetentionService schedule', () => {
  beforeEach(() => {
    jest.useFakeTimers();
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });

  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('runs a minute after boot, then once per interval, with the retention cutoff', async () => {
    const { run, scheduler, service } = setUp(60);
    service.onApplicationBootstrap();

    await jest.advanceTimersByTimeAsync(MINUTE_MS - 1);
    expect(run).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(1);
    const [now, cutoff, gap] = run.mock.calls[0];
    expect(now.toISOString()).toBe(NOW);
    expect(cutoff.toISOString()).toBe('2026-03-03T12:00:00.000Z');
    // A replica that ran within the last 59 minutes makes this run a no-op.
    expect(gap).toBe(59 * MINUTE_MS);

    // The interval started at boot: it fires at 60 and 120 minutes.
    await jest.advanceTimersByTimeAsync(59 * MINUTE_MS);
    expect(run).toHaveBeenCalledTimes(2);
    await jest.advanceTimersByTimeAsync(60 * MINUTE_MS);
    expect(run).toHaveBeenCalledTimes(3);

    expect(scheduler.getIntervals()).toEqual(['error-tracking-retention']);
    scheduler.deleteInterval('error-tracking-retention');
  });

  it('keeps the schedule after a failed run', async () => {
    const { run, scheduler, service } = setUp(1);
    run.mockRejectedValueOnce(new Error('database is down'));
    service.onApplicationBootstrap();

    await jest.advanceTimersByTimeAsync(MINUTE_MS);
    expect(run).toHaveBeenCalledTimes(2);
    expect(Logger.prototype.error).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(MINUTE_MS);
    expect(run).toHaveBeenCalledTimes(3);
    scheduler.deleteInterval('error-tracking-retention');
  });

  it('schedules nothing when the interval is 0 (retention:run only)', async () => {
    const { run, scheduler, service } = setUp(0);
    service.onApplicationBootstrap();

    await jest.advanceTimersByTimeAsync(24 * 60 * MINUTE_MS);
    expect(run).not.toHaveBeenCalled();
    expect(scheduler.getIntervals()).toEqual([]);
    expect(scheduler.getTimeouts()).toEqual([]);
  });

  it('forced runs ignore a recent run by another replica', async () => {
    const { run, service } = setUp(60);
    await service.run(true);
    expect(run.mock.calls[0][2]).toBe(0);
  });
});
