/**
 * The error-tracking benchmark's large tables, grown by SQL: a sample of
 * events goes through the collector (so every row and aggregate it writes
 * is the collector's own), then `INSERT ... SELECT` copies that sample
 * until the project holds the number of events asked for, and the
 * aggregates the reads use (counts, hours, tag counts) are recomputed from
 * the events.
 */
import { randomBytes } from 'node:crypto';

import { hashToken } from '@quitanda/kernel';
import { Client } from 'pg';

/** Events sent through the collector before the rest are copied. */
export const SAMPLE_EVENTS = 1_000;
/** Rows copied per statement: bounded memory for the RETURNING set. */
const CHUNK = 250_000;

/**
 * Copies project `projectId`'s events (those the collector stored) until it
 * holds `total`. Each copy keeps its sample's error, payload and partition
 * (`received_at`), with a fresh event id (in `event_ids` too, as the
 * collector's deduplication keeps it) and a timestamp spread over the 24
 * hours before it was received, like the sample's. Then each error's count
 * and first and last seen, and its hourly counts (the 24-hour frequency),
 * are recomputed from the events, and the tables vacuumed and analysed, as
 * after a restore: autovacuum would otherwise visit the new rows during the
 * measured runs (a first run with 5,000,000 copied events and only
 * `ANALYZE` had a p99 of 341 ms, the next 61 ms).
 */
export async function copyEvents(
  databaseUrl: string,
  projectId: number,
  total: number,
): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `CREATE TEMP TABLE sample AS
         SELECT row_number() OVER (ORDER BY event_id) - 1 AS k, e.*
           FROM error_tracking.events e
          WHERE e.project_id = $1`,
      [projectId],
    );
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_temp.sample',
    );
    const sampled = rows[0]?.n ?? 0;
    if (sampled === 0) throw new Error('copyEvents: no sample to copy');
    for (let held = sampled; held < total; held += CHUNK) {
      await client.query(
        `WITH copied AS (
           INSERT INTO error_tracking.events
                  (error_id, timestamp, event_id, received_at, project_id,
                   level, release, environment, tags, payload)
           SELECT s.error_id,
                  s.received_at - random() * interval '24 hours',
                  gen_random_uuid(), s.received_at, s.project_id,
                  s.level, s.release, s.environment, s.tags, s.payload
             FROM generate_series(0, $1::int - 1) AS g(i)
             JOIN pg_temp.sample s ON s.k = g.i % $2::int
           RETURNING project_id, event_id, timestamp, received_at)
         INSERT INTO error_tracking.event_ids
                (project_id, event_id, timestamp, received_at)
         SELECT project_id, event_id, timestamp, received_at FROM copied`,
        [Math.min(CHUNK, total - held), sampled],
      );
    }
    await client.query(
      `UPDATE error_tracking.errors e
          SET count = a.n,
              first_seen = least(e.first_seen, a.first),
              last_seen = greatest(e.last_seen, a.last)
         FROM (SELECT error_id, count(*) AS n, min(timestamp) AS first,
                      max(timestamp) AS last
                 FROM error_tracking.events
                WHERE project_id = $1
                GROUP BY error_id) a
        WHERE e.id = a.error_id`,
      [projectId],
    );
    // The hour bucket as the collector's flush writes it
    // (libs/error-tracking/.../flush/event-rows.step.ts, step `hourly`).
    await client.query(
      `INSERT INTO error_tracking.error_hourly_counts AS h (error_id, hour, environment, count)
       SELECT error_id,
              to_timestamp(floor(extract(epoch FROM timestamp) / 3600) * 3600),
              environment, count(*)
         FROM error_tracking.events
        WHERE project_id = $1
        GROUP BY 1, 2, 3
       ON CONFLICT (error_id, hour, environment) DO UPDATE SET count = excluded.count`,
      [projectId],
    );
    // The tag counts as the flush's `tag_counts` step writes them
    // (libs/error-tracking/.../flush/error-tags.step.ts).
    await client.query(
      `INSERT INTO error_tracking.error_tags AS t (error_id, key, value, count, last_seen)
       SELECT e.error_id, x.key, x.value, count(*), max(greatest(e.timestamp, e.received_at))
         FROM error_tracking.events e
        CROSS JOIN LATERAL jsonb_each_text(coalesce(e.tags, '{}')) AS x(key, value)
        WHERE e.project_id = $1
        GROUP BY 1, 2, 3
       ON CONFLICT (error_id, key, value)
         DO UPDATE SET count = excluded.count, last_seen = excluded.last_seen`,
      [projectId],
    );
    await client.query(
      `VACUUM (ANALYZE) error_tracking.events, error_tracking.event_ids,
               error_tracking.errors, error_tracking.error_hourly_counts,
               error_tracking.error_tags`,
    );
  } finally {
    await client.end();
  }
}

/** One of a project's stored events, as its web page's path names it. */
export interface StoredEvent {
  readonly errorId: string;
  readonly eventId: string;
}

/**
 * `count` of the project's events picked at random (a sample of the table,
 * not its first rows), and a web session cookie for root made the way
 * sign-in makes one (a random id whose digest is stored), so the web pages
 * can be measured without the sign-in form's CSRF round trips.
 */
export async function webPagesAccess(
  databaseUrl: string,
  projectId: number,
  count: number,
): Promise<{ cookie: string; events: StoredEvent[] }> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ error_id: string; event_id: string }>(
      `SELECT error_id::text, event_id::text FROM error_tracking.events
        TABLESAMPLE SYSTEM (1) WHERE project_id = $1 LIMIT $2`,
      [projectId, count],
    );
    const id = randomBytes(32).toString('base64url');
    // Root's password would expire at its first sign-in: not for the bench.
    await client.query(
      `UPDATE error_tracking.users SET password_expires_at = NULL WHERE username = 'root'`,
    );
    await client.query(
      `INSERT INTO error_tracking.web_sessions (id_digest, user_id, created_at, expires_at)
       SELECT $1, id, now(), now() + interval '1 day' FROM error_tracking.users WHERE username = 'root'`,
      [hashToken(id)],
    );
    return {
      cookie: `_quitanda_session=${id}`,
      events: rows.map((row) => ({
        errorId: row.error_id,
        eventId: row.event_id,
      })),
    };
  } finally {
    await client.end();
  }
}
