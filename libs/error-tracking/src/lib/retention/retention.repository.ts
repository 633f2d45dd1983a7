import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Sql } from '@quitanda/database';
import type { SqlExecutor } from '@quitanda/database';
import { DataSource } from 'typeorm';

import { ERROR_TRACKING_DATA_SOURCE } from '../error-tracking.constants';
import {
  dayEnd,
  listEventPartitionDays,
  partitionName,
} from '../persistence/event-partitions';

/** Transaction-level advisory lock: one retention run at a time across replicas. */
export const RETENTION_LOCK_KEY = 0x45_54_52_4e; // "ETRN"
export const RETENTION_JOB = 'retention';

/** Every event's timestamp is at most this far after its received_at. */
const FUTURE_SLACK_MS = 60_000;

export interface RetentionResult {
  /** False when another run held the lock or ran recently. */
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

@Injectable()
export class RetentionRepository {
  private readonly sql: Sql;

  constructor(
    @InjectDataSource(ERROR_TRACKING_DATA_SOURCE) dataSource: DataSource,
  ) {
    this.sql = new Sql(dataSource);
  }

  /**
   * Deletes events older than `cutoff` (by event timestamp), dropping whole
   * partitions where possible, and brings every counter in line with the
   * events that remain; errors left without events go with their counters.
   * One transaction; ingestion flushes wait for it (it locks `event_ids`,
   * which they lock first), so nothing is counted twice or missed.
   */
  run(now: Date, cutoff: Date, minimumGapMs: number): Promise<RetentionResult> {
    return this.sql.transaction(async (tx) => {
      const skipped = {
        ran: false,
        cutoff,
        expiredEvents: 0,
        droppedPartitions: [],
        deletedErrors: 0,
        deletedArtifactBundles: 0,
      };
      const [locked] = await tx.rows<{ locked: boolean }>(
        'SELECT pg_try_advisory_xact_lock($1) AS locked',
        [RETENTION_LOCK_KEY],
      );
      if (!locked?.locked) return skipped;
      const [last] = await tx.rows<{ last_run_at: Date }>(
        'SELECT last_run_at FROM error_tracking.maintenance_runs WHERE job = $1',
        [RETENTION_JOB],
      );
      if (last && now.getTime() - last.last_run_at.getTime() < minimumGapMs)
        return skipped;

      await tx.rows(
        'LOCK TABLE error_tracking.event_ids IN SHARE ROW EXCLUSIVE MODE',
      );
      const expired = await this.subtractExpired(tx, cutoff);
      const dropped = await this.dropExpiredEvents(
        tx,
        cutoff,
        expired.errorIds,
      );
      const deletedErrors = await this.deleteEmptyErrors(tx, cutoff);
      await this.recomputeFirstSeen(tx, cutoff);
      await this.forgetExpiredUsers(tx, cutoff);
      await tx.rows(
        'DELETE FROM error_tracking.error_facets WHERE last_seen < $1',
        [cutoff],
      );
      await tx.rows(
        'DELETE FROM error_tracking.event_ids WHERE timestamp < $1',
        [cutoff],
      );
      await tx.rows(
        'DELETE FROM error_tracking.release_sessions WHERE last_seen < $1',
        [cutoff],
      );
      await tx.rows(
        'DELETE FROM error_tracking.release_session_buckets WHERE started < $1',
        [cutoff],
      );
      await tx.rows(
        'DELETE FROM error_tracking.discarded_events WHERE day < $1::date',
        [cutoff.toISOString().slice(0, 10)],
      );
      await tx.rows(
        `DELETE FROM error_tracking.rate_limit_windows WHERE window_start < $1::timestamptz - interval '1 hour'`,
        [now],
      );
      const deletedArtifactBundles = await this.expireArtifacts(
        tx,
        now,
        cutoff,
      );
      await tx.rows(
        `INSERT INTO error_tracking.maintenance_runs (job, last_run_at) VALUES ($1, $2)
         ON CONFLICT (job) DO UPDATE SET last_run_at = excluded.last_run_at`,
        [RETENTION_JOB, now],
      );
      return {
        ran: true,
        cutoff,
        expiredEvents: expired.events,
        droppedPartitions: dropped,
        deletedErrors,
        deletedArtifactBundles,
      };
    });
  }

  /** Subtracts expiring events from their errors' and hours' counts. */
  private async subtractExpired(
    tx: SqlExecutor,
    cutoff: Date,
  ): Promise<{ events: number; errorIds: string[] }> {
    const [row] = await tx.rows<{
      events: string | null;
      error_ids: string[] | null;
    }>(
      `WITH expired AS (
         SELECT ev.error_id,
                to_timestamp(floor(extract(epoch FROM ev.timestamp) / 3600) * 3600) AS hour,
                count(*) AS n
           FROM error_tracking.events ev
          WHERE ev.error_id IN (SELECT id FROM error_tracking.errors WHERE first_seen < $1)
            AND ev.timestamp < $1
          GROUP BY 1, 2
       ),
       per_error AS (SELECT error_id, sum(n) AS n FROM expired GROUP BY error_id),
       hours AS (
         UPDATE error_tracking.error_hourly_counts h SET count = h.count - x.n
           FROM expired x WHERE h.error_id = x.error_id AND h.hour = x.hour
       ),
       errs AS (
         UPDATE error_tracking.errors e SET count = e.count - p.n
           FROM per_error p WHERE e.id = p.error_id
       )
       SELECT sum(n)::text AS events, array_agg(error_id::text) AS error_ids FROM per_error`,
      [cutoff],
    );
    await tx.rows(
      'DELETE FROM error_tracking.error_hourly_counts WHERE count <= 0',
    );
    return { events: Number(row?.events ?? 0), errorIds: row?.error_ids ?? [] };
  }

  /** Drops partitions holding only expired events, deletes the rest. */
  private async dropExpiredEvents(
    tx: SqlExecutor,
    cutoff: Date,
    errorIds: readonly string[],
  ): Promise<string[]> {
    const dropped: string[] = [];
    for (const day of await listEventPartitionDays(tx)) {
      if (dayEnd(day).getTime() > cutoff.getTime() - FUTURE_SLACK_MS) continue;
      await tx.rows(`DROP TABLE error_tracking.${partitionName(day)}`);
      dropped.push(partitionName(day));
    }
    if (errorIds.length > 0)
      await tx.rows(
        `DELETE FROM error_tracking.events
          WHERE error_id = ANY($1::bigint[]) AND timestamp < $2`,
        [errorIds, cutoff],
      );
    return dropped;
  }

  /**
   * Source maps age like events: bundles uploaded before the cutoff go with
   * their files; chunks never assembled go after a day.
   */
  private async expireArtifacts(
    tx: SqlExecutor,
    now: Date,
    cutoff: Date,
  ): Promise<number> {
    const [row] = await tx.rows<{ n: number }>(
      `WITH gone AS (
         DELETE FROM error_tracking.artifact_bundles WHERE created_at < $1 RETURNING id
       ), files AS (
         DELETE FROM error_tracking.artifact_files WHERE bundle_id IN (SELECT id FROM gone)
       )
       SELECT count(*)::int AS n FROM gone`,
      [cutoff],
    );
    await tx.rows(
      `DELETE FROM error_tracking.artifact_chunks
        WHERE created_at < $1::timestamptz - $2::interval`,
      [now, CHUNK_LIFETIME],
    );
    return row?.n ?? 0;
  }

  private async deleteEmptyErrors(
    tx: SqlExecutor,
    cutoff: Date,
  ): Promise<number> {
    const [row] = await tx.rows<{ n: number }>(
      `WITH gone AS (
         DELETE FROM error_tracking.errors WHERE count <= 0 OR last_seen < $1
         RETURNING id, project_id, fingerprint
       ),
       hours AS (
         DELETE FROM error_tracking.error_hourly_counts h USING gone WHERE h.error_id = gone.id
       ),
       facets AS (
         DELETE FROM error_tracking.error_facets f USING gone WHERE f.error_id = gone.id
       ),
       users AS (
         DELETE FROM error_tracking.error_users u USING gone
          WHERE u.project_id = gone.project_id AND u.fingerprint = gone.fingerprint
       )
       SELECT count(*)::int AS n FROM gone`,
      [cutoff],
    );
    return row?.n ?? 0;
  }

  /** First seen and first release of survivors: their earliest remaining event. */
  private async recomputeFirstSeen(
    tx: SqlExecutor,
    cutoff: Date,
  ): Promise<void> {
    await tx.rows(
      `UPDATE error_tracking.errors e
          SET first_seen = f.timestamp, first_release = f.release
         FROM (SELECT e2.id, first_event.timestamp, first_event.release
                 FROM error_tracking.errors e2
                 CROSS JOIN LATERAL (
                   SELECT ev.timestamp, ev.release FROM error_tracking.events ev
                    WHERE ev.error_id = e2.id
                    ORDER BY ev.timestamp, ev.event_id LIMIT 1
                 ) first_event
                WHERE e2.first_seen < $1) f
        WHERE e.id = f.id`,
      [cutoff],
    );
  }

  /** Users whose events all expired no longer count. */
  private async forgetExpiredUsers(
    tx: SqlExecutor,
    cutoff: Date,
  ): Promise<void> {
    await tx.rows(
      `WITH gone AS (
         DELETE FROM error_tracking.error_users WHERE last_seen < $1
         RETURNING project_id, fingerprint
       ),
       per_error AS (
         SELECT project_id, fingerprint, count(*) AS n FROM gone GROUP BY 1, 2
       )
       UPDATE error_tracking.errors e SET user_count = greatest(0, e.user_count - p.n)
         FROM per_error p
        WHERE e.project_id = p.project_id AND e.fingerprint = p.fingerprint`,
      [cutoff],
    );
  }
}
