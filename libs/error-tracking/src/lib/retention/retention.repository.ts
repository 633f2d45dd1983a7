import { Injectable } from '@nestjs/common';

import { EVENT_MAX_FUTURE_MS } from '../common/error-tracking.constants';
import type { Transaction } from '../persistence/error-tracking.database';
import {
  dayEnd,
  listEventPartitionDays,
  partitionName,
} from '../persistence/event-partitions';
import { ErrorTrackingRepository } from '../persistence/error-tracking-repository';
import { retryOnConflict } from '../persistence/retry-on-conflict';
import { THROTTLE_RESET_MS } from '../sessions/sign-in-throttle';
import { subtractHours } from './subtract-hours';
import { subtractTags } from './subtract-tags';

export const RETENTION_JOB = 'retention';

/**
 * Rows per retention transaction: each batch holds its row locks for a few
 * milliseconds, so an ingestion flush that meets one waits no longer.
 */
export const RETENTION_BATCH = 1_000;
const BY_KEY = { enable_hashjoin: 'off', enable_mergejoin: 'off' };
const MAX_ATTEMPTS = 4;

export interface RetentionResult {
  /** False when another replica ran within the interval. */
  readonly ran: boolean;
  readonly cutoff: Date;
  readonly expiredEvents: number;
  readonly droppedPartitions: string[];
  readonly deletedErrors: number;
  /** Uploaded source map bundles older than the cutoff, with their files. */
  readonly deletedArtifactBundles: number;
}

/** Chunks never assembled into a bundle are kept this long. */
const CHUNK_LIFETIME = '1 day';
/**
 * Attachments never linked to their event (a request refused or cut off
 * while they were written, its clean-up missed) are kept this long: far
 * past any request's deadline.
 */
const UNLINKED_ATTACHMENT_LIFETIME = '1 hour';

/**
 * Retention as many small transactions, none of which locks a table that an
 * ingestion flush writes: each batch deletes up to RETENTION_BATCH expired
 * events and subtracts exactly the rows it deleted from their errors' and
 * hours' counters (a flush adding to the same counters meanwhile commutes
 * with it), so the counters stay exact while both run, on any number of
 * replicas. Days whose partition is left empty are then detached
 * concurrently and dropped.
 */
@Injectable()
export class RetentionRepository extends ErrorTrackingRepository {
  /**
   * Deletes events older than `cutoff` (by event timestamp and by received
   * time, so each is kept its whole period since acknowledged) and brings every
   * counter in line with the events that remain; errors left without
   * events go with their counters. Skipped when a run started within
   * `minimumGapMs` (the claim is one row, taken before the work).
   */
  async run(
    now: Date,
    cutoff: Date,
    minimumGapMs: number,
  ): Promise<RetentionResult> {
    if (!(await this.claim(now, minimumGapMs)))
      return {
        ran: false,
        cutoff,
        expiredEvents: 0,
        droppedPartitions: [],
        deletedErrors: 0,
        deletedArtifactBundles: 0,
      };
    const expiredEvents = await this.deleteExpiredEvents(cutoff);
    const deletedErrors = await this.deleteEmptyErrors(cutoff);
    await this.recomputeFirstSeen(cutoff);
    await this.forgetExpiredUsers(cutoff);
    for (const [table, condition, value] of [
      ['error_facets', 'last_seen < $1', cutoff],
      ['release_sessions', 'last_seen < $1', cutoff],
      ['release_session_buckets', 'started < $1', cutoff],
      ['discarded_events', 'day < $1::date', cutoff.toISOString().slice(0, 10)],
      [
        'rate_limit_windows',
        `window_start < $1::timestamptz - interval '1 hour'`,
        now,
      ],
      // Sign-in throttles whose count would restart and block is over.
      [
        'sign_in_throttles',
        `blocked_until <= $1 AND last_failure_at < $1::timestamptz - interval '${THROTTLE_RESET_MS / 1000} seconds'`,
        now,
      ],
      // Alerts follow the events: settled deliveries, the delivery log and
      // fanned-out alerts older than the cutoff go; pending deliveries stay.
      ['alert_deliveries', `status <> 'pending' AND updated_at < $1`, cutoff],
      ['webhook_attempts', 'created_at < $1', cutoff],
      [
        'alerts',
        `fanned_out_at IS NOT NULL AND created_at < $1
         AND NOT EXISTS (SELECT 1 FROM error_tracking.alert_deliveries d
                          WHERE d.alert_id = alerts.id)`,
        cutoff,
      ],
    ] as const)
      await this.deleteInBatches(table, condition, value);
    await this.deleteStrayAttachments(now, cutoff);
    const deletedArtifactBundles = await this.expireArtifacts(now, cutoff);
    const droppedPartitions = await this.dropEmptyPartitions(cutoff);
    return {
      ran: true,
      cutoff,
      expiredEvents,
      droppedPartitions,
      deletedErrors,
      deletedArtifactBundles,
    };
  }

  /** One run per interval across replicas: the job's row, updated only if due. */
  private async claim(now: Date, minimumGapMs: number): Promise<boolean> {
    const rows = await this.sql.rows(
      `INSERT INTO error_tracking.maintenance_runs AS m (job, last_run_at) VALUES ($1, $2)
       ON CONFLICT (job) DO UPDATE SET last_run_at = excluded.last_run_at
        WHERE m.last_run_at <= $2::timestamptz - make_interval(secs => $3::double precision / 1000)
       RETURNING job`,
      [RETENTION_JOB, now, minimumGapMs],
    );
    return rows.length > 0;
  }

  /**
   * A batch's transaction, again if it met a deadlock with a flush. Joins
   * by key only: a batch's thousand rows are found through the primary
   * keys, where a hash join would read every partition of the events.
   */
  private batch<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return retryOnConflict(MAX_ATTEMPTS, () =>
      this.sql.transaction(work, BY_KEY),
    );
  }

  /**
   * Errors' rows locked in the flush's order (project, fingerprint), so a
   * batch and a flush never wait for each other in a cycle.
   */
  private async lockErrors(
    where: string,
    values: readonly unknown[],
    tx: Transaction,
  ): Promise<void> {
    await tx.rows(
      `SELECT 1 FROM error_tracking.errors WHERE ${where}
        ORDER BY project_id, fingerprint FOR UPDATE`,
      values,
    );
  }

  /** Deletes expired events batch by batch; returns how many. */
  private async deleteExpiredEvents(cutoff: Date): Promise<number> {
    let total = 0;
    // A cursor in the events' key order (error, timestamp, event id): each
    // batch starts after the last event deleted, never rescanning the dead
    // index entries the batches before it left.
    let after: { errorId: string; timestamp: Date; eventId: string } = {
      errorId: '0',
      timestamp: new Date(0),
      eventId: '00000000-0000-0000-0000-000000000000',
    };
    for (;;) {
      const { deleted, last } = await this.batch(async (tx) => {
        const gone = await tx.rows<{
          error_id: string;
          timestamp: Date;
          event_id: string;
          environment: string;
          tags: Array<[string, string, string, number]>;
        }>(
          `WITH doomed AS (
             SELECT x.* FROM error_tracking.errors e
              CROSS JOIN LATERAL (
                SELECT ev.error_id, ev.timestamp, ev.event_id, ev.received_at
                  FROM error_tracking.events ev
                 WHERE ev.error_id = e.id AND ev.timestamp < $1
                   -- Kept its whole period since it was acknowledged.
                   AND ev.received_at < $1
                   AND (ev.timestamp, ev.event_id) >
                       (CASE WHEN e.id = $3::bigint THEN $4::timestamptz ELSE '-infinity' END,
                        CASE WHEN e.id = $3::bigint THEN $5::uuid
                             ELSE '00000000-0000-0000-0000-000000000000' END)
                 ORDER BY ev.timestamp, ev.event_id
                 LIMIT $2) x
              WHERE e.first_seen < $1 AND e.id >= $3::bigint
              -- The cursor's order, so the batch is a prefix of what is left.
              ORDER BY e.id, x.timestamp, x.event_id
              LIMIT $2
           ),
           gone AS (
             DELETE FROM error_tracking.events ev USING doomed d
              WHERE ev.error_id = d.error_id AND ev.timestamp = d.timestamp
                AND ev.event_id = d.event_id AND ev.received_at = d.received_at
             RETURNING ev.project_id, ev.event_id, ev.error_id, ev.timestamp,
                       ev.environment, ev.tags
           ),
           tag_gone AS (
             SELECT g.error_id, t.key, t.value, count(*) AS n
               FROM gone g CROSS JOIN LATERAL jsonb_each_text(coalesce(g.tags, '{}')) t
              GROUP BY 1, 2, 3
           ),
           ids AS (
             DELETE FROM error_tracking.event_ids i USING gone g
              WHERE i.project_id = g.project_id AND i.event_id = g.event_id
           ),
           attachments AS (
             DELETE FROM error_tracking.event_attachments a USING gone g
              WHERE a.project_id = g.project_id AND a.event_id = g.event_id
             RETURNING a.id
           ),
           attachment_chunks AS (
             DELETE FROM error_tracking.event_attachment_chunks c
              USING attachments a WHERE c.attachment_id = a.id
           )
           SELECT error_id::text, timestamp, event_id::text, environment,
                  (SELECT coalesce(json_agg(json_build_array(error_id::text, key, value, n)), '[]')
                     FROM tag_gone) AS tags
             FROM gone
            ORDER BY error_id, timestamp, event_id`,
          [
            cutoff,
            RETENTION_BATCH,
            after.errorId,
            after.timestamp,
            after.eventId,
          ],
        );
        if (gone.length > 0) {
          await this.subtract(gone, tx);
          await subtractTags(gone[0]?.tags ?? [], tx);
        }
        return { deleted: gone.length, last: gone[gone.length - 1] };
      });
      total += deleted;
      if (deleted < RETENTION_BATCH || !last) return total;
      after = {
        errorId: last.error_id,
        timestamp: last.timestamp,
        eventId: last.event_id,
      };
    }
  }

  /** Takes deleted events off their errors' and hours' counts. */
  private async subtract(
    events: ReadonlyArray<{
      error_id: string;
      timestamp: Date;
      environment: string;
    }>,
    tx: Transaction,
  ): Promise<void> {
    const perError = new Map<string, number>();
    for (const event of events)
      perError.set(event.error_id, (perError.get(event.error_id) ?? 0) + 1);
    const ids = [...perError.keys()];
    await this.lockErrors('id = ANY($1::bigint[])', [ids], tx);
    await tx.rows(
      `UPDATE error_tracking.errors e SET count = e.count - x.n
         FROM unnest($1::bigint[], $2::int[]) AS x(error_id, n)
        WHERE e.id = x.error_id`,
      [ids, [...perError.values()]],
    );
    // Hours after errors, each in key order: the flush's order too.
    await subtractHours(events, tx);
  }

  /**
   * Errors left without events (or last seen before the cutoff with no
   * event left: a late event keeps its error while it is kept), batch by
   * batch, with the fingerprints merged into them.
   */
  private async deleteEmptyErrors(cutoff: Date): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await this.batch(async (tx) => {
        const [row] = await tx.rows<{ n: number }>(
          `WITH victims AS (
             SELECT id FROM error_tracking.errors
              WHERE count <= 0
                 OR (last_seen < $1 AND NOT EXISTS (
                       SELECT 1 FROM error_tracking.events ev
                        WHERE ev.error_id = errors.id))
              ORDER BY project_id, fingerprint
              LIMIT $2
                FOR UPDATE
           ),
           gone AS (
             DELETE FROM error_tracking.errors e USING victims v
              WHERE e.id = v.id
             RETURNING e.id, e.project_id, e.fingerprint
           ),
           hours AS (
             DELETE FROM error_tracking.error_hourly_counts h USING gone WHERE h.error_id = gone.id
           ),
           facets AS (
             DELETE FROM error_tracking.error_facets f USING gone WHERE f.error_id = gone.id
           ),
           tags AS (
             DELETE FROM error_tracking.error_tags t USING gone WHERE t.error_id = gone.id
           ),
           users AS (
             DELETE FROM error_tracking.error_users u USING gone
              WHERE u.project_id = gone.project_id AND u.fingerprint = gone.fingerprint
           ),
           merges AS (
             DELETE FROM error_tracking.error_merges m USING gone WHERE m.error_id = gone.id
           )
           SELECT count(*)::int AS n FROM gone`,
          [cutoff, RETENTION_BATCH],
        );
        return row?.n ?? 0;
      });
      total += deleted;
      if (deleted < RETENTION_BATCH) return total;
    }
  }

  /**
   * Attachments that no event holds: never linked (left by a request that
   * failed), or linked to an event that was never stored (an SDK's retry
   * of a duplicate, a spooled request refused when drained) and as old as
   * the cutoff. Those of expired events go with them (`deleteExpiredEvents`).
   */
  private async deleteStrayAttachments(now: Date, cutoff: Date): Promise<void> {
    for (;;) {
      const [row] = await this.sql.rows<{ n: number }>(
        `WITH gone AS (
           DELETE FROM error_tracking.event_attachments
            WHERE id = ANY(ARRAY(
              SELECT a.id FROM error_tracking.event_attachments a
               WHERE (a.event_id IS NULL
                      AND a.received_at < $1::timestamptz - $2::interval)
                  OR (a.received_at < $3 AND NOT EXISTS (
                        SELECT 1 FROM error_tracking.event_ids i
                         WHERE i.project_id = a.project_id
                           AND i.event_id = a.event_id))
               LIMIT $4 FOR UPDATE SKIP LOCKED))
           RETURNING id
         ), chunks AS (
           DELETE FROM error_tracking.event_attachment_chunks c
            USING gone WHERE c.attachment_id = gone.id
         )
         SELECT count(*)::int AS n FROM gone`,
        [now, UNLINKED_ATTACHMENT_LIFETIME, cutoff, RETENTION_BATCH],
      );
      if ((row?.n ?? 0) < RETENTION_BATCH) return;
    }
  }

  /**
   * Source maps age like events: bundles uploaded before the cutoff go with
   * their files; chunks never assembled go after a day.
   */
  private async expireArtifacts(now: Date, cutoff: Date): Promise<number> {
    // Bundles are few and large (up to the upload limit): one at a time, so
    // no statement holds many of them, nor a lock a flush could wait for.
    let deleted = 0;
    for (;;) {
      const [row] = await this.sql.rows<{ n: number }>(
        `WITH gone AS (
           DELETE FROM error_tracking.artifact_bundles
            WHERE id = (SELECT id FROM error_tracking.artifact_bundles
                         WHERE created_at < $1 LIMIT 1 FOR UPDATE SKIP LOCKED)
           RETURNING id
         ), files AS (
           DELETE FROM error_tracking.artifact_files WHERE bundle_id IN (SELECT id FROM gone)
         )
         SELECT count(*)::int AS n FROM gone`,
        [cutoff],
      );
      if (!row?.n) break;
      deleted += row.n;
    }
    await this.sql.rows(
      `DELETE FROM error_tracking.artifact_chunks
        WHERE created_at < $1::timestamptz - $2::interval`,
      [now, CHUNK_LIFETIME],
    );
    return deleted;
  }

  /** First seen and first release of survivors: their earliest remaining event. */
  private async recomputeFirstSeen(cutoff: Date): Promise<void> {
    let fromId = '0';
    for (;;) {
      const ids = await this.sql.rows<{ id: string }>(
        `SELECT id::text FROM error_tracking.errors
          WHERE first_seen < $1 AND id > $2::bigint ORDER BY id LIMIT $3`,
        [cutoff, fromId, RETENTION_BATCH],
      );
      if (ids.length === 0) return;
      await this.batch(async (tx) => {
        const batch = [ids.map((row) => row.id)];
        await this.lockErrors('id = ANY($1::bigint[])', batch, tx);
        await tx.rows(
          `UPDATE error_tracking.errors e
              SET first_seen = first_event.timestamp, first_release = first_event.release
             FROM error_tracking.errors e2
             CROSS JOIN LATERAL (
               SELECT ev.timestamp, ev.release FROM error_tracking.events ev
                WHERE ev.error_id = e2.id
                ORDER BY ev.timestamp, ev.event_id LIMIT 1
             ) first_event
            WHERE e2.id = ANY($1::bigint[]) AND e.id = e2.id`,
          batch,
        );
      });
      fromId = ids[ids.length - 1]?.id ?? fromId;
      if (ids.length < RETENTION_BATCH) return;
    }
  }

  /** Users whose events all expired no longer count. */
  private async forgetExpiredUsers(cutoff: Date): Promise<void> {
    for (;;) {
      const forgotten = await this.batch(async (tx) => {
        // Locked in the flush's order: users by key, then errors.
        const gone = await tx.rows<{
          project_id: number;
          fingerprint: string;
          n: number;
        }>(
          `WITH victims AS (
             SELECT project_id, fingerprint, user_key FROM error_tracking.error_users
              WHERE last_seen < $1
              ORDER BY project_id, fingerprint, user_key
              LIMIT $2
                FOR UPDATE
           ),
           gone AS (
             DELETE FROM error_tracking.error_users u USING victims v
              WHERE u.project_id = v.project_id AND u.fingerprint = v.fingerprint
                AND u.user_key = v.user_key
             RETURNING u.project_id, u.fingerprint
           )
           SELECT project_id, fingerprint, count(*)::int AS n FROM gone GROUP BY 1, 2`,
          [cutoff, RETENTION_BATCH],
        );
        if (gone.length === 0) return 0;
        const keys = [
          gone.map((g) => g.project_id),
          gone.map((g) => g.fingerprint),
          gone.map((g) => g.n),
        ];
        await this.lockErrors(
          `(project_id, fingerprint) IN (
             SELECT * FROM unnest($1::int[], $2::uuid[]))`,
          keys.slice(0, 2),
          tx,
        );
        await tx.rows(
          `UPDATE error_tracking.errors e SET user_count = greatest(0, e.user_count - p.n)
             FROM unnest($1::int[], $2::uuid[], $3::int[]) AS p(project_id, fingerprint, n)
            WHERE e.project_id = p.project_id AND e.fingerprint = p.fingerprint`,
          keys,
        );
        return gone.reduce((sum, g) => sum + g.n, 0);
      });
      if (forgotten < RETENTION_BATCH) return;
    }
  }

  /** Rows no counter depends on, a batch at a time; locked rows wait for the next run. */
  private async deleteInBatches(
    table: string,
    condition: string,
    value: unknown,
  ): Promise<void> {
    for (;;) {
      const [row] = await this.sql.rows<{ n: number }>(
        `WITH gone AS (
           DELETE FROM error_tracking.${table}
            WHERE ctid = ANY(ARRAY(
              SELECT ctid FROM error_tracking.${table} WHERE ${condition}
               LIMIT $2 FOR UPDATE SKIP LOCKED))
           RETURNING 1)
         SELECT count(*)::int AS n FROM gone`,
        [value, RETENTION_BATCH],
      );
      if ((row?.n ?? 0) < RETENTION_BATCH) return;
    }
  }

  /**
   * Partitions of days wholly before the cutoff, once empty: detached
   * CONCURRENTLY (no lock that a flush's insert waits for), then dropped.
   */
  private async dropEmptyPartitions(cutoff: Date): Promise<string[]> {
    const dropped: string[] = [];
    for (const day of await listEventPartitionDays(this.sql)) {
      if (dayEnd(day).getTime() > cutoff.getTime() - EVENT_MAX_FUTURE_MS)
        continue;
      const name = `error_tracking.${partitionName(day)}`;
      const [row] = await this.sql.rows<{ empty: boolean }>(
        `SELECT NOT EXISTS (SELECT 1 FROM ${name}) AS empty`,
      );
      if (!row?.empty) continue;
      try {
        await this.sql.rows(
          `ALTER TABLE error_tracking.events DETACH PARTITION ${name} CONCURRENTLY`,
        );
      } catch {
        // A server (or embedded database) that cannot detach concurrently:
        // dropping takes the parent's lock for a moment instead.
      }
      await this.sql.rows(`DROP TABLE IF EXISTS ${name}`);
      dropped.push(partitionName(day));
    }
    return dropped;
  }
}
