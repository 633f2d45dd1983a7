import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Sql } from '@quitanda/database';
import type { SqlExecutor } from '@quitanda/database';
import { DataSource } from 'typeorm';

import { ERROR_TRACKING_DATA_SOURCE } from '../error-tracking.constants';
import {
  createEventPartitions,
  isMissingPartition,
  utcDay,
} from '../persistence/event-partitions';
import {
  aggregateFresh,
  mergeBuckets,
  mergeDiscards,
  mergeSessions,
} from './flush-aggregates';
import type { FreshEvent } from './flush-aggregates';
import type { IngestRequest, IngestVerdict } from './ingest-request';

/** 32-hex event id as a PostgreSQL uuid literal. */
export function toUuid(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface FlushResult {
  /** One per request of the batch, in order. */
  readonly verdicts: IngestVerdict[];
  /** Events stored (duplicates and rejected requests excluded). */
  readonly stored: number;
  /** Events that were already stored (same project and event id). */
  readonly duplicates: number;
  /** Events counted in each key's rate-limit window, after this flush. */
  readonly windows: ReadonlyMap<number, number>;
  readonly reopenedIssues: number;
}

export interface FlushOptions {
  readonly now: Date;
  /** Events per minute and key; 0 = unlimited. */
  readonly rateLimit: number;
}

interface AdmissionRow {
  rejected: Array<[number, IngestVerdict]>;
  fresh: Array<[number, string]>;
  new_users: Array<[number, string, number]>;
  windows: Array<[number, number]>;
}

const MINUTE_MS = 60_000;
const RETRYABLE = new Set(['40P01', '40001']);
const MAX_ATTEMPTS = 4;

/**
 * The ingestion flush: everything a batch of collector requests writes, in
 * one transaction of at most four statements whatever the batch size.
 *
 * 1. Admission: keys still active and tracking still on (a deleted key stops
 *    at once on every replica), the per-key rate-limit window (shared by all
 *    replicas, decided inside the transaction), duplicate event ids, users.
 * 2. Errors: one upsert per error with the batch's aggregates, its events,
 *    hourly counts, facets, and issues reopened by regressions.
 * 3. Release health and discarded counts.
 */
@Injectable()
export class IngestionRepository {
  private readonly sql: Sql;
  private readonly knownPartitions = new Set<string>();

  constructor(
    @InjectDataSource(ERROR_TRACKING_DATA_SOURCE) dataSource: DataSource,
  ) {
    this.sql = new Sql(dataSource);
  }

  async flush(
    batch: readonly IngestRequest[],
    options: FlushOptions,
  ): Promise<FlushResult> {
    for (let attempt = 1; ; attempt++) {
      await this.ensurePartitions(batch);
      try {
        return await this.sql.transaction((tx) =>
          this.flushOnce(tx, batch, options),
        );
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (attempt >= MAX_ATTEMPTS) throw error;
        if (isMissingPartition(error)) {
          // Retention dropped a partition this process thought it had.
          this.knownPartitions.clear();
          continue;
        }
        if (typeof code === 'string' && RETRYABLE.has(code)) continue;
        throw error;
      }
    }
  }

  private async ensurePartitions(
    batch: readonly IngestRequest[],
  ): Promise<void> {
    const missing = new Set<string>();
    for (const request of batch)
      for (const event of request.events) {
        const day = utcDay(event.receivedAt);
        if (!this.knownPartitions.has(day)) missing.add(day);
      }
    if (missing.size === 0) return;
    await createEventPartitions(this.sql, missing);
    for (const day of missing) this.knownPartitions.add(day);
  }

  private async flushOnce(
    tx: SqlExecutor,
    batch: readonly IngestRequest[],
    { now, rateLimit }: FlushOptions,
  ): Promise<FlushResult> {
    const windowStart = new Date(
      Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS,
    );
    const events = batch.flatMap((request, index) =>
      request.events.map((event) => ({ index, request, event })),
    );
    const [admission] = await tx.rows<AdmissionRow & Record<string, unknown>>(
      ADMIT_SQL,
      [
        batch.map((_, index) => index),
        batch.map((request) => request.keyId),
        batch.map((request) => request.events.length),
        windowStart,
        rateLimit,
        events.map((e) => e.index),
        events.map((e) => e.request.projectId),
        events.map((e) => toUuid(e.event.eventId)),
        events.map((e) => e.event.timestamp),
        events.map((e) => e.event.receivedAt),
        events.map((e) => e.event.fingerprint),
        events.map((e) => e.event.userKey),
      ],
    );
    const row = admission as AdmissionRow;
    const verdicts: IngestVerdict[] = batch.map(() => 'ok');
    for (const [index, verdict] of row.rejected) verdicts[index] = verdict;

    // Each new event id once, from the request the admission chose.
    const freshKeys = new Set(row.fresh.map(([i, id]) => `${i}:${id}`));
    const fresh: FreshEvent[] = [];
    for (const e of events) {
      const key = `${e.index}:${toUuid(e.event.eventId)}`;
      if (!freshKeys.delete(key)) continue;
      fresh.push({ projectId: e.request.projectId, event: e.event });
    }
    const admittedEvents = events.filter((e) => verdicts[e.index] === 'ok');

    let reopenedIssues = 0;
    if (fresh.length > 0)
      reopenedIssues = await this.storeErrors(tx, fresh, row.new_users, now);
    await this.storeReleaseHealth(tx, batch, verdicts);

    return {
      verdicts,
      stored: fresh.length,
      duplicates: admittedEvents.length - fresh.length,
      windows: new Map(row.windows),
      reopenedIssues,
    };
  }

  private async storeErrors(
    tx: SqlExecutor,
    fresh: readonly FreshEvent[],
    newUserRows: ReadonlyArray<[number, string, number]>,
    now: Date,
  ): Promise<number> {
    const newUsers = new Map(
      newUserRows.map(([project, fingerprint, n]) => [
        `${project}:${fingerprint}`,
        n,
      ]),
    );
    const { errors, hourly, facets } = aggregateFresh(fresh, newUsers);
    const [result] = await tx.rows<{ reopened: number }>(STORE_SQL, [
      errors.map((e) => e.projectId),
      errors.map((e) => e.fingerprint),
      errors.map((e) => e.groupingVersion),
      errors.map((e) => e.events),
      errors.map((e) => e.newUsers),
      errors.map((e) => e.first.timestamp),
      errors.map((e) => e.first.release),
      errors.map((e) => e.last.timestamp),
      errors.map((e) => e.last.release),
      errors.map((e) => e.last.level),
      errors.map((e) => e.last.logger),
      errors.map((e) => e.last.title),
      errors.map((e) => e.last.type),
      errors.map((e) => e.last.message),
      errors.map((e) => e.last.culprit),
      errors.map((e) => e.last.platform),
      errors.map((e) => toUuid(e.last.eventId)),
      now,
      randomUUID(),
      fresh.map((f) => f.projectId),
      fresh.map((f) => f.event.fingerprint),
      fresh.map((f) => toUuid(f.event.eventId)),
      fresh.map((f) => f.event.timestamp),
      fresh.map((f) => f.event.receivedAt),
      fresh.map((f) => f.event.level),
      fresh.map((f) => f.event.release),
      fresh.map((f) => f.event.environment),
      fresh.map((f) => f.event.payloadJson),
      hourly.map((h) => h.projectId),
      hourly.map((h) => h.fingerprint),
      hourly.map((h) => h.hour),
      hourly.map((h) => h.count),
      facets.map((f) => f.projectId),
      facets.map((f) => f.fingerprint),
      facets.map((f) => f.kind),
      facets.map((f) => f.value),
      facets.map((f) => f.lastSeen),
    ]);
    return result?.reopened ?? 0;
  }

  private async storeReleaseHealth(
    tx: SqlExecutor,
    batch: readonly IngestRequest[],
    verdicts: readonly IngestVerdict[],
  ): Promise<void> {
    const admitted = batch.filter((_, index) => verdicts[index] === 'ok');
    const sessions = mergeSessions(
      admitted.flatMap((r) =>
        r.sessions.map((session) => ({ projectId: r.projectId, session })),
      ),
    );
    const buckets = mergeBuckets(
      admitted.flatMap((r) =>
        r.buckets.map((bucket) => ({ projectId: r.projectId, bucket })),
      ),
    );
    const discards = mergeDiscards(
      admitted.flatMap((r) =>
        r.discards.map((discard) => ({
          projectId: r.projectId,
          day: utcDay(r.receivedAt),
          discard,
        })),
      ),
    );
    if (sessions.length + buckets.length + discards.length === 0) return;
    await tx.rows(RELEASE_HEALTH_SQL, [
      sessions.map((s) => s.projectId),
      sessions.map((s) => s.session.sid),
      sessions.map((s) => s.session.release),
      sessions.map((s) => s.session.environment),
      sessions.map((s) => s.session.startedAt),
      sessions.map((s) => s.session.seenAt),
      sessions.map((s) => s.session.errored),
      sessions.map((s) => s.session.crashed),
      sessions.map((s) => s.session.abnormal),
      buckets.map((b) => b.projectId),
      buckets.map((b) => b.bucket.release),
      buckets.map((b) => b.bucket.environment),
      buckets.map((b) => b.bucket.started),
      buckets.map((b) => b.bucket.exited),
      buckets.map((b) => b.bucket.errored),
      buckets.map((b) => b.bucket.crashed),
      buckets.map((b) => b.bucket.abnormal),
      discards.map((d) => d.projectId),
      discards.map((d) => d.day),
      discards.map((d) => d.discard.source),
      discards.map((d) => d.discard.reason),
      discards.map((d) => d.discard.category),
      discards.map((d) => d.discard.quantity),
    ]);
  }
}

/*
 * Statement 1, admission. Rows are inserted in key order so concurrent
 * flushes on several replicas lock in the same order (no deadlocks).
 */
const ADMIT_SQL = `
WITH req AS (
  SELECT * FROM unnest($1::int[], $2::int[], $3::int[]) AS r(req, key_id, events)
),
allowed AS (
  SELECT k.id AS key_id
    FROM error_tracking.client_keys k
    JOIN error_tracking.projects p ON p.id = k.project_id
   WHERE k.id IN (SELECT key_id FROM req) AND k.active AND p.tracking_active
),
demand AS (
  SELECT key_id, sum(events)::int AS events
    FROM req WHERE key_id IN (SELECT key_id FROM allowed)
   GROUP BY key_id
),
windows AS (
  INSERT INTO error_tracking.rate_limit_windows AS w (key_id, window_start, events)
  SELECT key_id, $4::timestamptz, events FROM demand
   WHERE $5::int > 0 AND events > 0
   ORDER BY key_id
  ON CONFLICT (key_id, window_start) DO UPDATE SET events = w.events + excluded.events
  RETURNING key_id, events
),
verdicts AS (
  SELECT r.req,
         CASE
           WHEN a.key_id IS NULL THEN 'forbidden'
           WHEN $5::int > 0
                AND coalesce(w.events - d.events, 0)
                    + sum(r.events) OVER (PARTITION BY r.key_id ORDER BY r.req) > $5::int
             THEN 'rate_limited'
           ELSE 'ok'
         END AS verdict
    FROM req r
    LEFT JOIN allowed a ON a.key_id = r.key_id
    LEFT JOIN demand d ON d.key_id = r.key_id
    LEFT JOIN windows w ON w.key_id = r.key_id
),
ev AS (
  SELECT * FROM unnest($6::int[], $7::int[], $8::uuid[], $9::timestamptz[],
                       $10::timestamptz[], $11::uuid[], $12::uuid[])
         AS e(req, project_id, event_id, ts, received_at, fingerprint, user_key)
),
candidates AS (
  SELECT DISTINCT ON (e.project_id, e.event_id) e.*
    FROM ev e JOIN verdicts v ON v.req = e.req AND v.verdict = 'ok'
   ORDER BY e.project_id, e.event_id, e.req
),
ids AS (
  INSERT INTO error_tracking.event_ids (project_id, event_id, timestamp, received_at)
  SELECT project_id, event_id, ts, received_at FROM candidates
   ORDER BY project_id, event_id
  ON CONFLICT DO NOTHING
  RETURNING project_id, event_id
),
fresh AS (
  SELECT c.* FROM candidates c JOIN ids USING (project_id, event_id)
),
users AS (
  INSERT INTO error_tracking.error_users AS u (project_id, fingerprint, user_key, last_seen)
  SELECT project_id, fingerprint, user_key, max(ts) FROM fresh
   WHERE user_key IS NOT NULL
   GROUP BY project_id, fingerprint, user_key
   ORDER BY project_id, fingerprint, user_key
  ON CONFLICT (project_id, fingerprint, user_key)
    DO UPDATE SET last_seen = greatest(u.last_seen, excluded.last_seen)
  RETURNING project_id, fingerprint, (xmax = 0) AS inserted
)
SELECT
  (SELECT coalesce(json_agg(json_build_array(req, verdict)), '[]'::json)
     FROM verdicts WHERE verdict <> 'ok') AS rejected,
  (SELECT coalesce(json_agg(json_build_array(req, event_id)), '[]'::json)
     FROM fresh) AS fresh,
  (SELECT coalesce(json_agg(json_build_array(project_id, fingerprint, n)), '[]'::json)
     FROM (SELECT project_id, fingerprint, count(*) FILTER (WHERE inserted) AS n
             FROM users GROUP BY project_id, fingerprint) x
    WHERE n > 0) AS new_users,
  (SELECT coalesce(json_agg(json_build_array(key_id, events)), '[]'::json)
     FROM windows) AS windows`;

/*
 * Statement 2: each error upserted once with the flush's aggregates (SET
 * expressions see the row as it was), then its events, hourly counts and
 * facets, and the issues its regression reopens.
 */
const STORE_SQL = `
WITH g AS (
  SELECT * FROM unnest($1::int[], $2::uuid[], $3::smallint[], $4::int[], $5::int[],
                       $6::timestamptz[], $7::text[], $8::timestamptz[], $9::text[],
                       $10::text[], $11::text[], $12::text[], $13::text[], $14::text[],
                       $15::text[], $16::text[], $17::uuid[])
         AS g(project_id, fingerprint, grouping_version, events, new_users,
              first_seen, first_release, last_seen, last_release,
              level, logger, title, type, message, culprit, platform, last_event_id)
),
up AS (
  INSERT INTO error_tracking.errors AS e
         (project_id, fingerprint, grouping_version, title, type, message, culprit,
          platform, level, logger, status, count, user_count, first_seen, last_seen,
          first_release, last_release, last_event_id, created_at, updated_at)
  SELECT project_id, fingerprint, grouping_version, title, type, message, culprit,
         platform, level, logger, 'unresolved', events, new_users, first_seen, last_seen,
         first_release, last_release, last_event_id, $18, $18
    FROM g ORDER BY project_id, fingerprint
  ON CONFLICT (project_id, fingerprint) DO UPDATE SET
    count = e.count + excluded.count,
    user_count = e.user_count + excluded.user_count,
    first_seen = least(e.first_seen, excluded.first_seen),
    first_release = CASE WHEN excluded.first_seen < e.first_seen
                         THEN excluded.first_release ELSE e.first_release END,
    last_seen = greatest(e.last_seen, excluded.last_seen),
    last_release = CASE WHEN excluded.last_seen >= e.last_seen
                        THEN excluded.last_release ELSE e.last_release END,
    level = CASE WHEN excluded.last_seen >= e.last_seen THEN excluded.level ELSE e.level END,
    logger = CASE WHEN excluded.last_seen >= e.last_seen THEN excluded.logger ELSE e.logger END,
    title = CASE WHEN excluded.last_seen >= e.last_seen THEN excluded.title ELSE e.title END,
    type = CASE WHEN excluded.last_seen >= e.last_seen THEN excluded.type ELSE e.type END,
    message = CASE WHEN excluded.last_seen >= e.last_seen THEN excluded.message ELSE e.message END,
    culprit = CASE WHEN excluded.last_seen >= e.last_seen THEN excluded.culprit ELSE e.culprit END,
    platform = CASE WHEN excluded.last_seen >= e.last_seen THEN excluded.platform ELSE e.platform END,
    last_event_id = CASE WHEN excluded.last_seen >= e.last_seen
                         THEN excluded.last_event_id ELSE e.last_event_id END,
    status = CASE WHEN e.status = 'resolved' THEN 'unresolved' ELSE e.status END,
    regressed_at = CASE WHEN e.status = 'resolved' THEN $18 ELSE e.regressed_at END,
    regression_flush = CASE WHEN e.status = 'resolved' THEN $19::uuid
                            ELSE e.regression_flush END,
    updated_at = $18
  RETURNING id, project_id, fingerprint, issue_iid,
            coalesce(regression_flush = $19::uuid, false) AS regressed
),
stored AS (
  INSERT INTO error_tracking.events
         (error_id, timestamp, event_id, received_at, project_id, level, release,
          environment, payload)
  SELECT up.id, x.ts, x.event_id, x.received_at, x.project_id, x.level, x.release,
         x.environment, x.payload::jsonb
    FROM unnest($20::int[], $21::uuid[], $22::uuid[], $23::timestamptz[],
                $24::timestamptz[], $25::text[], $26::text[], $27::text[], $28::text[])
         AS x(project_id, fingerprint, event_id, ts, received_at, level, release,
              environment, payload)
    JOIN up ON up.project_id = x.project_id AND up.fingerprint = x.fingerprint
),
hourly AS (
  INSERT INTO error_tracking.error_hourly_counts AS h (error_id, hour, count)
  SELECT up.id, y.hour, y.n
    FROM unnest($29::int[], $30::uuid[], $31::timestamptz[], $32::int[])
         AS y(project_id, fingerprint, hour, n)
    JOIN up ON up.project_id = y.project_id AND up.fingerprint = y.fingerprint
   ORDER BY up.id, y.hour
  ON CONFLICT (error_id, hour) DO UPDATE SET count = h.count + excluded.count
),
facets AS (
  INSERT INTO error_tracking.error_facets AS f (error_id, kind, value, last_seen)
  SELECT up.id, z.kind, z.value, z.last_seen
    FROM unnest($33::int[], $34::uuid[], $35::text[], $36::text[], $37::timestamptz[])
         AS z(project_id, fingerprint, kind, value, last_seen)
    JOIN up ON up.project_id = z.project_id AND up.fingerprint = z.fingerprint
   ORDER BY up.id, z.kind, z.value
  ON CONFLICT (error_id, kind, value)
    DO UPDATE SET last_seen = greatest(f.last_seen, excluded.last_seen)
),
reopened AS (
  UPDATE error_tracking.issues i
     SET state = 'opened', closed_at = NULL, updated_at = $18
    FROM up
   WHERE up.regressed AND up.issue_iid IS NOT NULL
     AND i.project_id = up.project_id AND i.iid = up.issue_iid
     AND i.state = 'closed'
  RETURNING i.id
)
SELECT (SELECT count(*) FROM reopened)::int AS reopened`;

/* Statement 3: release health (sessions once per sid) and discarded counts. */
const RELEASE_HEALTH_SQL = `
WITH s AS (
  INSERT INTO error_tracking.release_sessions AS rs
         (project_id, sid, release, environment, started_at, last_seen,
          errored, crashed, abnormal)
  SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[],
                       $5::timestamptz[], $6::timestamptz[], $7::bool[], $8::bool[],
                       $9::bool[])
   ORDER BY 1, 2
  ON CONFLICT (project_id, sid) DO UPDATE SET
    started_at = least(rs.started_at, excluded.started_at),
    last_seen = greatest(rs.last_seen, excluded.last_seen),
    errored = rs.errored OR excluded.errored,
    crashed = rs.crashed OR excluded.crashed,
    abnormal = rs.abnormal OR excluded.abnormal
),
b AS (
  INSERT INTO error_tracking.release_session_buckets AS b
         (project_id, release, environment, started, exited, errored, crashed, abnormal)
  SELECT * FROM unnest($10::int[], $11::text[], $12::text[], $13::timestamptz[],
                       $14::int[], $15::int[], $16::int[], $17::int[])
   ORDER BY 1, 2, 3, 4
  ON CONFLICT (project_id, release, environment, started) DO UPDATE SET
    exited = b.exited + excluded.exited,
    errored = b.errored + excluded.errored,
    crashed = b.crashed + excluded.crashed,
    abnormal = b.abnormal + excluded.abnormal
),
d AS (
  INSERT INTO error_tracking.discarded_events AS d
         (project_id, day, source, reason, category, quantity)
  SELECT * FROM unnest($18::int[], $19::date[], $20::text[], $21::text[],
                       $22::text[], $23::bigint[])
   ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (project_id, day, source, reason, category)
    DO UPDATE SET quantity = d.quantity + excluded.quantity
)
SELECT 1`;
