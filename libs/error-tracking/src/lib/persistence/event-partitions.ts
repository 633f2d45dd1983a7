import type { SqlExecutor } from '@quitanda/database';

/**
 * `error_tracking.events` holds one partition per UTC day of `received_at`,
 * named `events_pYYYYMMDD`, created on first use and dropped whole by
 * retention.
 */

const DAY_MS = 86_400_000;
const PARTITION_NAME = /^events_p(\d{4})(\d{2})(\d{2})$/;

/** `YYYY-MM-DD` (UTC) of an instant. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

export function partitionName(day: string): string {
  return `events_p${day.replace(/-/g, '')}`;
}

/** The day a partition covers, from its name; undefined for other tables. */
export function partitionDay(name: string): string | undefined {
  const match = PARTITION_NAME.exec(name);
  return match ? `${match[1]}-${match[2]}-${match[3]}` : undefined;
}

/** Start of the day after `day`. */
export function dayEnd(day: string): Date {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + DAY_MS);
}

const ALREADY_EXISTS = new Set(['42P07', '23505']);

/** Creates the partitions of these days if missing (safe to race). */
export async function createEventPartitions(
  sql: SqlExecutor,
  days: Iterable<string>,
): Promise<void> {
  for (const day of days) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error(`bad day ${day}`);
    const from = `${day}T00:00:00.000Z`;
    const to = dayEnd(day).toISOString();
    try {
      await sql.rows(
        `CREATE TABLE IF NOT EXISTS error_tracking.${partitionName(day)}
           PARTITION OF error_tracking.events
           FOR VALUES FROM ('${from}') TO ('${to}')`,
      );
    } catch (error) {
      // Another replica created it between our check and our create.
      const code = (error as { code?: unknown }).code;
      if (typeof code !== 'string' || !ALREADY_EXISTS.has(code)) throw error;
    }
  }
}

/** The days that have a partition, oldest first. */
export async function listEventPartitionDays(
  sql: SqlExecutor,
): Promise<string[]> {
  const rows = await sql.rows<{ name: string }>(
    `SELECT c.relname AS name
       FROM pg_inherits i
       JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'error_tracking.events'::regclass`,
  );
  return rows
    .map((row) => partitionDay(row.name))
    .filter((day): day is string => day !== undefined)
    .sort();
}

/** SQLSTATE when a row fits no partition (one was dropped meanwhile). */
export function isMissingPartition(error: unknown): boolean {
  const pg = error as { code?: unknown; message?: unknown };
  return (
    pg.code === '23514' &&
    typeof pg.message === 'string' &&
    pg.message.includes('no partition')
  );
}
