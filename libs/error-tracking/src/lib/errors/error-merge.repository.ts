import { Injectable } from '@nestjs/common';

import type { Transaction } from '../persistence/error-tracking.database';
import { ErrorTrackingRepository } from '../persistence/error-tracking-repository';

/** The errors of a merge, locked: the kept one and those merged into it. */
export interface LockedMerge {
  readonly keptFingerprint: string;
  /** Every id found in the project (the kept one included). */
  readonly found: readonly string[];
}

/** One merge: `mergedIds` (locked, of the project) go into `keptId`. */
export interface MergePlan {
  readonly projectId: number;
  readonly keptId: string;
  readonly keptFingerprint: string;
  readonly mergedIds: readonly string[];
  readonly now: Date;
}

/**
 * Merging errors into one, in the caller's transaction: every row that
 * says something about a merged error moves to the kept one, so the kept
 * error stays equal to a recount of its events (the same invariant the
 * flush and retention keep).
 */
@Injectable()
export class ErrorMergeRepository extends ErrorTrackingRepository {
  /**
   * Locks the errors in fingerprint order, the order the flush locks them
   * in, so a merge and a flush never wait on each other in a cycle.
   */
  async lock(
    projectId: number,
    keptId: string,
    mergedIds: readonly string[],
    tx: Transaction,
  ): Promise<LockedMerge | undefined> {
    const rows = await tx.rows<{ id: string; fingerprint: string }>(
      `SELECT id::text, fingerprint::text FROM error_tracking.errors
        WHERE project_id = $1 AND id = ANY($2::bigint[])
        ORDER BY fingerprint FOR UPDATE`,
      [projectId, [keptId, ...mergedIds]],
    );
    const kept = rows.find((row) => row.id === keptId);
    return kept
      ? { keptFingerprint: kept.fingerprint, found: rows.map((r) => r.id) }
      : undefined;
  }

  /**
   * Moves `mergedIds` (locked, of the project) into `keptId`: their
   * fingerprints (and those merged into them before) now route to the kept
   * error, their events, hourly counts, facets, tag counts and users move, the kept
   * error's aggregates are recomputed from both, pending alerts follow (one
   * per trigger and window, so none fires twice) and the merged rows go.
   */
  async merge(plan: MergePlan, tx: Transaction): Promise<void> {
    const { projectId, keptId, mergedIds, now } = plan;
    const merged = [projectId, keptId, mergedIds] as const;
    await tx.rows(
      `INSERT INTO error_tracking.error_merges AS m (project_id, fingerprint, error_id, merged_at)
       SELECT project_id, fingerprint, $2, $4 FROM error_tracking.errors
        WHERE project_id = $1 AND id = ANY($3::bigint[])
        ORDER BY fingerprint
       ON CONFLICT (project_id, fingerprint)
         DO UPDATE SET error_id = excluded.error_id, merged_at = excluded.merged_at`,
      [...merged, now],
    );
    await tx.rows(
      `UPDATE error_tracking.error_merges SET error_id = $2
        WHERE project_id = $1 AND error_id = ANY($3::bigint[])`,
      merged,
    );
    await tx.rows(
      `UPDATE error_tracking.events SET error_id = $2
        WHERE project_id = $1 AND error_id = ANY($3::bigint[])`,
      merged,
    );
    await tx.rows(
      `INSERT INTO error_tracking.error_hourly_counts AS h (error_id, hour, environment, count)
       SELECT $1::bigint, hour, environment, sum(count)::int FROM error_tracking.error_hourly_counts
        WHERE error_id = ANY($2::bigint[]) GROUP BY hour, environment ORDER BY hour, environment
       ON CONFLICT (error_id, hour, environment) DO UPDATE SET count = h.count + excluded.count`,
      [keptId, mergedIds],
    );
    await tx.rows(
      `INSERT INTO error_tracking.error_facets AS f (error_id, kind, value, last_seen)
       SELECT $1::bigint, kind, value, max(last_seen) FROM error_tracking.error_facets
        WHERE error_id = ANY($2::bigint[]) GROUP BY kind, value ORDER BY kind, value
       ON CONFLICT (error_id, kind, value)
         DO UPDATE SET last_seen = greatest(f.last_seen, excluded.last_seen)`,
      [keptId, mergedIds],
    );
    await tx.rows(
      `INSERT INTO error_tracking.error_tags AS t (error_id, key, value, count, first_seen, last_seen)
       SELECT $1::bigint, g.key, g.value, sum(g.count),
              min(coalesce(g.first_seen, e.first_seen)), max(g.last_seen)
         FROM error_tracking.error_tags g
         JOIN error_tracking.errors e ON e.id = g.error_id
        WHERE g.error_id = ANY($2::bigint[]) GROUP BY g.key, g.value ORDER BY g.key, g.value
       ON CONFLICT (error_id, key, value) DO UPDATE SET
         count = t.count + excluded.count,
         first_seen = CASE WHEN t.first_seen IS NOT NULL
      THEN least(t.first_seen, excluded.first_seen) END,
         last_seen = greatest(t.last_seen, excluded.last_seen)`,
      [keptId, mergedIds],
    );
    await tx.rows(
      `DELETE FROM error_tracking.error_hourly_counts WHERE error_id = ANY($1::bigint[])`,
      [mergedIds],
    );
    await tx.rows(
      `DELETE FROM error_tracking.error_facets WHERE error_id = ANY($1::bigint[])`,
      [mergedIds],
    );
    await tx.rows(
      `DELETE FROM error_tracking.error_tags WHERE error_id = ANY($1::bigint[])`,
      [mergedIds],
    );
    await this.moveUsers(plan, tx);
    await this.combineAggregates(plan, tx);
    await tx.rows(
      `UPDATE error_tracking.alerts a SET error_id = $1
        WHERE a.id IN (SELECT DISTINCT ON (trigger, window_start) id
                         FROM error_tracking.alerts
                        WHERE error_id = ANY($2::bigint[])
                        ORDER BY trigger, window_start, id)
          AND NOT EXISTS (SELECT 1 FROM error_tracking.alerts k
                           WHERE k.error_id = $1 AND k.trigger = a.trigger
                             AND k.window_start = a.window_start)`,
      [keptId, mergedIds],
    );
    await tx.rows(
      `DELETE FROM error_tracking.errors WHERE project_id = $1 AND id = ANY($2::bigint[])`,
      [projectId, mergedIds],
    );
  }

  /** The merged errors' distinct users become the kept error's (by user key). */
  private async moveUsers(
    { projectId, keptFingerprint, mergedIds }: MergePlan,
    tx: Transaction,
  ): Promise<void> {
    await tx.rows(
      `WITH moved AS (
         DELETE FROM error_tracking.error_users u
          USING error_tracking.errors e
          WHERE e.project_id = $1 AND e.id = ANY($3::bigint[])
            AND u.project_id = e.project_id AND u.fingerprint = e.fingerprint
         RETURNING u.user_key, u.last_seen)
       INSERT INTO error_tracking.error_users AS u (project_id, fingerprint, user_key, last_seen)
       SELECT $1, $2::uuid, user_key, max(last_seen) FROM moved
        GROUP BY user_key ORDER BY user_key
       ON CONFLICT (project_id, fingerprint, user_key)
         DO UPDATE SET last_seen = greatest(u.last_seen, excluded.last_seen)`,
      [projectId, keptFingerprint, mergedIds],
    );
  }

  /**
   * The kept error's aggregates over all the merged rows: counts add up,
   * the earliest first seen (with its release), the latest event's fields
   * (the kept error's on a tie), its users recounted, and the first linked
   * issue when the kept error has none. Its status stays its own.
   */
  private async combineAggregates(
    { projectId, keptId, keptFingerprint, mergedIds, now }: MergePlan,
    tx: Transaction,
  ): Promise<void> {
    await tx.rows(
      `WITH members AS (
         SELECT * FROM error_tracking.errors
          WHERE project_id = $1 AND (id = $2 OR id = ANY($3::bigint[]))),
       earliest AS (
         SELECT first_seen, first_release FROM members
          ORDER BY first_seen, (id = $2) DESC, id LIMIT 1),
       latest AS (
         SELECT * FROM members ORDER BY last_seen DESC, (id = $2) DESC, id LIMIT 1)
       UPDATE error_tracking.errors e SET
         count = (SELECT sum(count) FROM members),
         user_count = (SELECT count(*) FROM error_tracking.error_users u
                        WHERE u.project_id = $1 AND u.fingerprint = $4::uuid),
         first_seen = earliest.first_seen, first_release = earliest.first_release,
         last_seen = latest.last_seen, last_release = latest.last_release,
         level = latest.level, logger = latest.logger, title = latest.title,
         type = latest.type, message = latest.message, culprit = latest.culprit,
         platform = latest.platform, last_event_id = latest.last_event_id,
         issue_iid = coalesce(e.issue_iid,
           (SELECT issue_iid FROM members WHERE issue_iid IS NOT NULL ORDER BY id LIMIT 1)),
         updated_at = $5
        FROM earliest, latest
       WHERE e.project_id = $1 AND e.id = $2`,
      [projectId, keptId, mergedIds, keptFingerprint, now],
    );
  }
}
