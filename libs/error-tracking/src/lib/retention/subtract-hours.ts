import type { Transaction } from '../persistence/error-tracking.database';
import { takeOffCounts } from './take-off-counts';

/** Hours counted before environments were kept. */
const NO_ENVIRONMENT = '';
const HOUR_MS = 3_600_000;

/** A row of `error_hourly_counts`, its error id as text. */
export interface HourlyCountRow {
  readonly error_id: string;
  readonly hour: Date;
  readonly environment: string;
  readonly count: number;
}

/** One hourly row's decrement. */
export interface HourDecrement {
  readonly errorId: string;
  readonly hour: Date;
  readonly environment: string;
  readonly n: number;
}

function keyOf(errorId: string, hour: number, environment: string): string {
  return JSON.stringify([errorId, hour, environment]);
}

/** Deleted events per hourly row: their error, hour and environment. */
export function hoursOf(
  events: ReadonlyArray<{
    readonly error_id: string;
    readonly timestamp: Date;
    readonly environment: string;
  }>,
): HourDecrement[] {
  const hours = new Map<string, HourDecrement>();
  for (const event of events) {
    const hour = Math.floor(event.timestamp.getTime() / HOUR_MS) * HOUR_MS;
    const key = keyOf(event.error_id, hour, event.environment);
    hours.set(key, {
      errorId: event.error_id,
      hour: new Date(hour),
      environment: event.environment,
      n: (hours.get(key)?.n ?? 0) + 1,
    });
  }
  return [...hours.values()];
}

/**
 * What to take off which hourly rows (`stored`: their counts by key): each
 * environment's row while it has counts, the rest off the row of hours
 * counted before environments were kept (`''`), where those events were
 * counted; totals stay exact either way.
 */
export function hourDecrements(
  hours: readonly HourDecrement[],
  stored: ReadonlyMap<string, number>,
): HourDecrement[] {
  const taken = new Map<string, HourDecrement>();
  const take = (decrement: HourDecrement) => {
    const key = keyOf(
      decrement.errorId,
      decrement.hour.getTime(),
      decrement.environment,
    );
    const known = taken.get(key);
    taken.set(key, { ...decrement, n: (known?.n ?? 0) + decrement.n });
  };
  for (const hour of hours) {
    const own =
      hour.environment === NO_ENVIRONMENT
        ? hour.n
        : Math.min(
            hour.n,
            stored.get(
              keyOf(hour.errorId, hour.hour.getTime(), hour.environment),
            ) ?? 0,
          );
    if (own > 0) take({ ...hour, n: own });
    if (hour.n > own)
      take({ ...hour, environment: NO_ENVIRONMENT, n: hour.n - own });
  }
  return [...taken.values()];
}

/**
 * Takes a retention batch's deleted events off their errors' hourly
 * counts, in the batch's transaction after the errors' rows: locked in key
 * order, as the flush writes them, and an hour left at 0 goes.
 */
export async function subtractHours(
  events: ReadonlyArray<{
    readonly error_id: string;
    readonly timestamp: Date;
    readonly environment: string;
  }>,
  tx: Transaction,
): Promise<void> {
  if (events.length === 0) return;
  const hours = hoursOf(events);
  const locked = await tx.rows<HourlyCountRow>(
    `SELECT h.error_id::text, h.hour, h.environment, h.count
       FROM error_tracking.error_hourly_counts h
       JOIN unnest($1::bigint[], $2::timestamptz[], $3::text[])
            AS x(error_id, hour, environment)
         ON h.error_id = x.error_id AND h.hour = x.hour
        AND h.environment IN (x.environment, '${NO_ENVIRONMENT}')
      ORDER BY h.error_id, h.hour, h.environment FOR UPDATE OF h`,
    [
      hours.map((h) => h.errorId),
      hours.map((h) => h.hour),
      hours.map((h) => h.environment),
    ],
  );
  const stored = new Map(
    locked.map((row) => [
      keyOf(row.error_id, row.hour.getTime(), row.environment),
      row.count,
    ]),
  );
  const decrements = hourDecrements(hours, stored);
  await takeOffCounts(
    tx,
    'error_hourly_counts',
    [
      {
        column: 'error_id',
        arrayType: 'bigint[]',
        values: decrements.map((d) => d.errorId),
      },
      {
        column: 'hour',
        arrayType: 'timestamptz[]',
        values: decrements.map((d) => d.hour),
      },
      {
        column: 'environment',
        arrayType: 'text[]',
        values: decrements.map((d) => d.environment),
      },
    ],
    decrements.map((d) => d.n),
  );
}
