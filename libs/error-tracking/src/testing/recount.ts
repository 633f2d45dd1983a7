import type { Sql } from '@quitanda/database';

import type { HourlyCountRow } from '../lib/retention/subtract-hours';

export interface RecountMismatch {
  readonly errorId: string;
  readonly field: string;
  readonly stored: unknown;
  readonly recounted: unknown;
}

interface EventRow {
  error_id: string;
  timestamp: Date;
  release: string | null;
  level: string;
  logger: string | null;
  user: Record<string, string> | null;
  event_id: string;
  environment: string;
  tags: Record<string, string> | null;
}

function userKey(user: Record<string, string> | null): string | null {
  if (!user) return null;
  for (const field of ['id', 'email', 'username', 'ip_address'])
    if (user[field]) return `${field}:${user[field]}`;
  return null;
}

/**
 * Compares every error's stored aggregates of a project with a recount
 * from its stored events; returns the differences (none when consistent).
 */
export async function recountErrors(
  sql: Sql,
  projectId: number,
): Promise<RecountMismatch[]> {
  const errors = await sql.rows<{
    id: string;
    count: string;
    user_count: number;
    first_seen: Date;
    last_seen: Date;
    first_release: string | null;
    last_release: string | null;
    level: string;
    logger: string | null;
  }>(
    `SELECT id::text, count::text, user_count, first_seen, last_seen, first_release,
            last_release, level, logger
       FROM error_tracking.errors WHERE project_id = $1`,
    [projectId],
  );
  const events = await sql.rows<EventRow>(
    `SELECT error_id::text, timestamp, release, level, payload->>'logger' AS logger,
            payload->'user' AS user, event_id::text, environment, tags
       FROM error_tracking.events WHERE project_id = $1`,
    [projectId],
  );
  const hourly = await sql.rows<HourlyCountRow>(
    `SELECT h.error_id::text, h.hour, h.environment, h.count
       FROM error_tracking.error_hourly_counts h
       JOIN error_tracking.errors e ON e.id = h.error_id WHERE e.project_id = $1`,
    [projectId],
  );
  const tagRows = await sql.rows<{
    error_id: string;
    key: string;
    value: string;
    count: string;
  }>(
    `SELECT t.error_id::text, t.key, t.value, t.count::text FROM error_tracking.error_tags t
       JOIN error_tracking.errors e ON e.id = t.error_id WHERE e.project_id = $1`,
    [projectId],
  );
  const mismatches: RecountMismatch[] = [];
  const check = (
    errorId: string,
    field: string,
    stored: unknown,
    recounted: unknown,
  ) => {
    if (JSON.stringify(stored) !== JSON.stringify(recounted))
      mismatches.push({ errorId, field, stored, recounted });
  };
  for (const error of errors) {
    const own = events.filter((e) => e.error_id === error.id);
    check(error.id, 'count', Number(error.count), own.length);
    if (own.length === 0) continue;
    const byTime = [...own].sort(
      (a, b) => a.timestamp.getTime() - b.timestamp.getTime(),
    );
    const first = byTime[0] as EventRow;
    const last = byTime[byTime.length - 1] as EventRow;
    check(
      error.id,
      'first_seen',
      error.first_seen.toISOString(),
      first.timestamp.toISOString(),
    );
    check(
      error.id,
      'last_seen',
      error.last_seen.toISOString(),
      last.timestamp.toISOString(),
    );
    check(error.id, 'first_release', error.first_release, first.release);
    check(error.id, 'last_release', error.last_release, last.release);
    check(error.id, 'level', error.level, last.level);
    check(error.id, 'logger', error.logger, last.logger);
    const users = new Set(
      own.map((e) => userKey(e.user)).filter((k) => k !== null),
    );
    check(error.id, 'user_count', error.user_count, users.size);
    const hours = new Map<string, number>();
    for (const e of own) {
      const hour = Math.floor(e.timestamp.getTime() / 3_600_000) * 3_600_000;
      const key = `${hour} ${e.environment}`;
      hours.set(key, (hours.get(key) ?? 0) + 1);
    }
    const storedHours = new Map(
      hourly
        .filter((h) => h.error_id === error.id)
        .map((h) => [`${h.hour.getTime()} ${h.environment}`, h.count]),
    );
    check(
      error.id,
      'hourly',
      [...storedHours.entries()].sort(),
      [...hours.entries()].sort(),
    );
    const tags = new Map<string, number>();
    for (const e of own)
      for (const [key, value] of Object.entries(e.tags ?? {}))
        tags.set(`${key}=${value}`, (tags.get(`${key}=${value}`) ?? 0) + 1);
    check(
      error.id,
      'tags',
      tagRows
        .filter((t) => t.error_id === error.id && Number(t.count) > 0)
        .map((t): [string, number] => [`${t.key}=${t.value}`, Number(t.count)])
        .sort((a, b) => a[0].localeCompare(b[0])),
      [...tags.entries()].sort((a, b) => a[0].localeCompare(b[0])),
    );
  }
  const known = new Set(errors.map((e) => e.id));
  for (const event of events)
    if (!known.has(event.error_id))
      mismatches.push({
        errorId: event.error_id,
        field: 'orphan event',
        stored: null,
        recounted: event.event_id,
      });
  return mismatches;
}
