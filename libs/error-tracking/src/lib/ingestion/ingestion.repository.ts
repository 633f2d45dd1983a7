import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Sql } from '@quitanda/database';
import { DataSource } from 'typeorm';

import { ERROR_TRACKING_DATA_SOURCE } from '../error-tracking.constants';
import {
  createEventPartitions,
  isMissingPartition,
  utcDay,
} from '../persistence/event-partitions';
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
  /** Alerts recorded in the outbox (new, regression, frequent). */
  readonly alerts: number;
}

export interface FlushOptions {
  readonly now: Date;
  /** Events per minute and key; 0 = unlimited. */
  readonly rateLimit: number;
}

interface FlushRow {
  rejected: Array<[number, IngestVerdict]>;
  windows: Array<[number, number]>;
  stored: number;
  reopened: number;
  alerts: number;
}

const RETRYABLE = new Set(['40P01', '40001']);
const MAX_ATTEMPTS = 4;
const MINUTE_MS = 60_000;

/**
 * The ingestion flush: everything a batch of collector requests writes, as
 * ONE statement (so one round trip and one implicit transaction, whatever
 * the batch size):
 *
 * - admission: keys still active and tracking still on (a deleted key stops
 *   at once on every replica), the per-key rate-limit window (shared by all
 *   replicas, decided here), duplicate event ids;
 * - each error upserted once with the batch's aggregates, its events, users,
 *   hourly counts, facets, the issues its regression reopens;
 * - the alerts it triggers (outbox `alerts`): a new error, a regression, a
 *   `frequent` threshold crossed (counted on the error row, only for
 *   projects that set one);
 * - release health and discarded counts of the admitted requests.
 *
 * Rows are written in key order so concurrent flushes of several replicas
 * lock in the same order (no deadlocks; a deadlock would be retried).
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
        return await this.flushOnce(batch, options);
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
    batch: readonly IngestRequest[],
    { now, rateLimit }: FlushOptions,
  ): Promise<FlushResult> {
    const windowStart = new Date(
      Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS,
    );
    const events = batch.flatMap((request, index) =>
      request.events.map((event) => ({ index, request, event })),
    );
    const sessions = batch.flatMap((r, index) =>
      r.sessions.map((session) => ({ index, session })),
    );
    const buckets = batch.flatMap((r, index) =>
      r.buckets.map((bucket) => ({ index, bucket })),
    );
    const discards = batch.flatMap((r, index) =>
      r.discards.map((discard) => ({
        index,
        day: utcDay(r.receivedAt),
        discard,
      })),
    );
    const [row] = await this.sql.prepared<FlushRow & Record<string, unknown>>(
      'error_tracking_flush',
      FLUSH_SQL,
      [
        batch.map((_, index) => index),
        batch.map((request) => request.keyId),
        batch.map((request) => request.projectId),
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
        events.map((e) => e.event.groupingVersion),
        events.map((e) => e.event.level),
        events.map((e) => e.event.logger),
        events.map((e) => e.event.release),
        events.map((e) => e.event.environment),
        events.map((e) => e.event.platform),
        events.map((e) => e.event.title),
        events.map((e) => e.event.type),
        events.map((e) => e.event.message),
        events.map((e) => e.event.culprit),
        // Already JSON: joined, not escaped element by element.
        `[${events.map((e) => e.event.payloadJson).join(',')}]`,
        now,
        randomUUID(),
        sessions.map((s) => s.index),
        sessions.map((s) => s.session.sid),
        sessions.map((s) => s.session.release),
        sessions.map((s) => s.session.environment),
        sessions.map((s) => s.session.startedAt),
        sessions.map((s) => s.session.seenAt),
        sessions.map((s) => s.session.errored),
        sessions.map((s) => s.session.crashed),
        sessions.map((s) => s.session.abnormal),
        buckets.map((b) => b.index),
        buckets.map((b) => b.bucket.release),
        buckets.map((b) => b.bucket.environment),
        buckets.map((b) => b.bucket.started),
        buckets.map((b) => b.bucket.exited),
        buckets.map((b) => b.bucket.errored),
        buckets.map((b) => b.bucket.crashed),
        buckets.map((b) => b.bucket.abnormal),
        discards.map((d) => d.index),
        discards.map((d) => d.day),
        discards.map((d) => d.discard.source),
        discards.map((d) => d.discard.reason),
        discards.map((d) => d.discard.category),
        discards.map((d) => d.discard.quantity),
      ],
    );
    const result = row as FlushRow;
    const verdicts: IngestVerdict[] = batch.map(() => 'ok');
    for (const [index, verdict] of result.rejected) verdicts[index] = verdict;
    const admitted = events.filter((e) => verdicts[e.index] === 'ok').length;
    return {
      verdicts,
      stored: result.stored,
      duplicates: admitted - result.stored,
      windows: new Map(result.windows),
      reopenedIssues: result.reopened,
      alerts: result.alerts,
    };
  }
}

const FLUSH_SQL = `
WITH requests AS (
  SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::int[])
         AS r(req, key_id, project_id, events)
),
allowed AS (
  SELECT k.id AS key_id
    FROM error_tracking.client_keys k
    JOIN error_tracking.projects p ON p.id = k.project_id
   WHERE k.id IN (SELECT key_id FROM requests) AND k.active AND p.tracking_active
),
demand AS (
  SELECT key_id, sum(events)::int AS events
    FROM requests WHERE key_id IN (SELECT key_id FROM allowed)
   GROUP BY key_id
),
windows AS (
  INSERT INTO error_tracking.rate_limit_windows AS w (key_id, window_start, events)
  SELECT key_id, $5::timestamptz, events FROM demand
   WHERE $6::int > 0 AND events > 0
   ORDER BY key_id
  ON CONFLICT (key_id, window_start) DO UPDATE SET events = w.events + excluded.events
  RETURNING key_id, events
),
verdicts AS (
  SELECT r.req,
         CASE
           WHEN a.key_id IS NULL THEN 'forbidden'
           WHEN $6::int > 0
                AND coalesce(w.events - d.events, 0)
                    + sum(r.events) OVER (PARTITION BY r.key_id ORDER BY r.req) > $6::int
             THEN 'rate_limited'
           ELSE 'ok'
         END AS verdict
    FROM requests r
    LEFT JOIN allowed a ON a.key_id = r.key_id
    LEFT JOIN demand d ON d.key_id = r.key_id
    LEFT JOIN windows w ON w.key_id = r.key_id
),
ok AS (
  SELECT v.req, r.project_id FROM verdicts v JOIN requests r USING (req)
   WHERE v.verdict = 'ok'
),
ev AS (
  SELECT * FROM unnest($7::int[], $8::int[], $9::uuid[], $10::timestamptz[],
                       $11::timestamptz[], $12::uuid[], $13::uuid[], $14::smallint[],
                       $15::text[], $16::text[], $17::text[], $18::text[], $19::text[],
                       $20::text[], $21::text[], $22::text[], $23::text[])
         WITH ORDINALITY
         AS e(req, project_id, event_id, ts, received_at, fingerprint, user_key,
              grouping_version, level, logger, release, environment, platform,
              title, type, message, culprit, ord)
),
candidates AS (
  SELECT DISTINCT ON (e.project_id, e.event_id) e.*
    FROM ev e WHERE e.req IN (SELECT req FROM ok)
   ORDER BY e.project_id, e.event_id, e.ord
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
),
new_users AS (
  SELECT project_id, fingerprint, count(*) FILTER (WHERE inserted)::int AS n
    FROM users GROUP BY project_id, fingerprint
),
agg AS (
  -- Ties: the earlier arrival is "first", the later arrival is "latest".
  SELECT project_id, fingerprint, min(grouping_version) AS grouping_version,
         count(*)::int AS events, min(ts) AS first_seen,
         (array_agg(release ORDER BY ts, ord))[1] AS first_release,
         max(ts) AS last_seen,
         (array_agg(ord ORDER BY ts DESC, ord DESC))[1] AS last_ord
    FROM fresh GROUP BY project_id, fingerprint
),
g AS (
  SELECT a.*, coalesce(nu.n, 0) AS new_users, l.level, l.logger,
         l.release AS last_release, l.title, l.type, l.message, l.culprit,
         l.platform, l.event_id AS last_event_id
    FROM agg a
    JOIN fresh l ON l.ord = a.last_ord
    LEFT JOIN new_users nu
      ON nu.project_id = a.project_id AND nu.fingerprint = a.fingerprint
),
frequent_rules AS (
  -- Projects of this flush with a "frequent" rule (none by default).
  SELECT id AS project_id, alert_frequent_threshold AS threshold,
         to_timestamp(floor(extract(epoch FROM $25::timestamptz)
                            / (alert_frequent_window_minutes * 60))
                      * alert_frequent_window_minutes * 60) AS window_start
    FROM error_tracking.projects
   WHERE id IN (SELECT DISTINCT project_id FROM g)
     AND alert_frequent_threshold IS NOT NULL
),
up AS (
  INSERT INTO error_tracking.errors AS e
         (project_id, fingerprint, grouping_version, title, type, message, culprit,
          platform, level, logger, status, count, user_count, first_seen, last_seen,
          first_release, last_release, last_event_id, created_at, updated_at,
          alert_window_start, alert_window_events)
  SELECT g.project_id, fingerprint, grouping_version, title, type, message, culprit,
         platform, level, logger, 'unresolved', events, new_users, first_seen, last_seen,
         first_release, last_release, last_event_id, $25, $25,
         r.window_start, CASE WHEN r.window_start IS NULL THEN 0 ELSE events END
    FROM g LEFT JOIN frequent_rules r ON r.project_id = g.project_id
   ORDER BY g.project_id, fingerprint
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
    regressed_at = CASE WHEN e.status = 'resolved' THEN $25 ELSE e.regressed_at END,
    regression_flush = CASE WHEN e.status = 'resolved' THEN $26::uuid
                            ELSE e.regression_flush END,
    alert_window_start = excluded.alert_window_start,
    alert_window_events = CASE
      WHEN excluded.alert_window_start IS NULL THEN 0
      WHEN e.alert_window_start = excluded.alert_window_start
        THEN e.alert_window_events + excluded.alert_window_events
      ELSE excluded.alert_window_events END,
    updated_at = $25
  RETURNING id, project_id, fingerprint, issue_iid, status, (xmax = 0) AS inserted,
            alert_window_start, alert_window_events,
            coalesce(regression_flush = $26::uuid, false) AS regressed
),
stored AS (
  INSERT INTO error_tracking.events
         (error_id, timestamp, event_id, received_at, project_id, level, release,
          environment, payload)
  SELECT up.id, f.ts, f.event_id, f.received_at, f.project_id, f.level, f.release,
         f.environment, ($24::jsonb) -> (f.ord::int - 1)
    FROM fresh f
    JOIN up ON up.project_id = f.project_id AND up.fingerprint = f.fingerprint
),
hourly AS (
  INSERT INTO error_tracking.error_hourly_counts AS h (error_id, hour, count)
  SELECT up.id, to_timestamp(floor(extract(epoch FROM f.ts) / 3600) * 3600), count(*)
    FROM fresh f
    JOIN up ON up.project_id = f.project_id AND up.fingerprint = f.fingerprint
   GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (error_id, hour) DO UPDATE SET count = h.count + excluded.count
),
facets AS (
  INSERT INTO error_tracking.error_facets AS fa (error_id, kind, value, last_seen)
  SELECT up.id, x.kind, x.value, max(f.ts)
    FROM fresh f
    JOIN up ON up.project_id = f.project_id AND up.fingerprint = f.fingerprint
    CROSS JOIN LATERAL (VALUES ('environment', f.environment), ('release', f.release))
         AS x(kind, value)
   WHERE x.value IS NOT NULL
   GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (error_id, kind, value)
    DO UPDATE SET last_seen = greatest(fa.last_seen, excluded.last_seen)
),
reopened AS (
  UPDATE error_tracking.issues i
     SET state = 'opened', closed_at = NULL, updated_at = $25
    FROM up
   WHERE up.regressed AND up.issue_iid IS NOT NULL
     AND i.project_id = up.project_id AND i.iid = up.issue_iid
     AND i.state = 'closed'
  RETURNING i.id
),
triggered AS (
  SELECT id AS error_id, 'new' AS trigger, $25::timestamptz AS window_start
    FROM up WHERE inserted
  UNION ALL
  SELECT id, 'regression', $25::timestamptz FROM up WHERE regressed
  UNION ALL
  -- Only the flush that crosses the threshold: one alert per window.
  SELECT up.id, 'frequent', up.alert_window_start
    FROM up
    JOIN frequent_rules r ON r.project_id = up.project_id
    JOIN g ON g.project_id = up.project_id AND g.fingerprint = up.fingerprint
   WHERE up.alert_window_events >= r.threshold
     AND up.alert_window_events - g.events < r.threshold
     AND up.status <> 'ignored'
),
alerts AS (
  INSERT INTO error_tracking.alerts
         (project_id, error_id, trigger, window_start, event_id, created_at)
  SELECT up.project_id, t.error_id, t.trigger, t.window_start, g.last_event_id, $25
    FROM triggered t
    JOIN up ON up.id = t.error_id
    JOIN g ON g.project_id = up.project_id AND g.fingerprint = up.fingerprint
   ORDER BY 2, 3, 4
  ON CONFLICT (error_id, trigger, window_start) DO NOTHING
  RETURNING id
),
sessions AS (
  INSERT INTO error_tracking.release_sessions AS rs
         (project_id, sid, release, environment, started_at, last_seen,
          errored, crashed, abnormal)
  SELECT ok.project_id, s.sid, min(s.release), min(s.environment), min(s.started),
         max(s.seen), bool_or(s.errored), bool_or(s.crashed), bool_or(s.abnormal)
    FROM unnest($27::int[], $28::text[], $29::text[], $30::text[], $31::timestamptz[],
                $32::timestamptz[], $33::bool[], $34::bool[], $35::bool[])
         AS s(req, sid, release, environment, started, seen, errored, crashed, abnormal)
    JOIN ok ON ok.req = s.req
   GROUP BY ok.project_id, s.sid ORDER BY 1, 2
  ON CONFLICT (project_id, sid) DO UPDATE SET
    started_at = least(rs.started_at, excluded.started_at),
    last_seen = greatest(rs.last_seen, excluded.last_seen),
    errored = rs.errored OR excluded.errored,
    crashed = rs.crashed OR excluded.crashed,
    abnormal = rs.abnormal OR excluded.abnormal
),
buckets AS (
  INSERT INTO error_tracking.release_session_buckets AS b
         (project_id, release, environment, started, exited, errored, crashed, abnormal)
  SELECT ok.project_id, x.release, x.environment, x.started,
         sum(x.exited), sum(x.errored), sum(x.crashed), sum(x.abnormal)
    FROM unnest($36::int[], $37::text[], $38::text[], $39::timestamptz[], $40::int[],
                $41::int[], $42::int[], $43::int[])
         AS x(req, release, environment, started, exited, errored, crashed, abnormal)
    JOIN ok ON ok.req = x.req
   GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (project_id, release, environment, started) DO UPDATE SET
    exited = b.exited + excluded.exited,
    errored = b.errored + excluded.errored,
    crashed = b.crashed + excluded.crashed,
    abnormal = b.abnormal + excluded.abnormal
),
discarded AS (
  INSERT INTO error_tracking.discarded_events AS d
         (project_id, day, source, reason, category, quantity)
  SELECT ok.project_id, x.day, x.source, x.reason, x.category, sum(x.quantity)
    FROM unnest($44::int[], $45::date[], $46::text[], $47::text[], $48::text[],
                $49::bigint[])
         AS x(req, day, source, reason, category, quantity)
    JOIN ok ON ok.req = x.req
   GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (project_id, day, source, reason, category)
    DO UPDATE SET quantity = d.quantity + excluded.quantity
)
SELECT
  (SELECT coalesce(json_agg(json_build_array(req, verdict)), '[]'::json)
     FROM verdicts WHERE verdict <> 'ok') AS rejected,
  (SELECT coalesce(json_agg(json_build_array(key_id, events)), '[]'::json)
     FROM windows) AS windows,
  (SELECT count(*) FROM fresh)::int AS stored,
  (SELECT count(*) FROM reopened)::int AS reopened,
  (SELECT count(*) FROM alerts)::int AS alerts`;
