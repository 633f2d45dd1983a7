import type { FlushStep } from './flush-step';

/**
 * What each error keeps, from this flush's new events, per (project,
 * fingerprint): the distinct users it had not seen yet (`user_count`; a
 * user's `last_seen` is when retention may forget it: the latest of its
 * events' times and arrivals, as events expire by both), the
 * event count, first seen with its release, last seen, and the latest
 * event's level, logger, release, title, type, message, culprit and
 * platform (`g`, one row per error of the batch).
 */
export const ERROR_AGGREGATES: readonly FlushStep[] = [
  {
    name: 'users',
    sql: `  INSERT INTO error_tracking.error_users AS u (project_id, fingerprint, user_key, last_seen)
  SELECT project_id, fingerprint, user_key, max(greatest(ts, received_at)) FROM fresh
   WHERE user_key IS NOT NULL
   GROUP BY project_id, fingerprint, user_key
   ORDER BY project_id, fingerprint, user_key
  ON CONFLICT (project_id, fingerprint, user_key)
    DO UPDATE SET last_seen = greatest(u.last_seen, excluded.last_seen)
  RETURNING project_id, fingerprint, (xmax = 0) AS inserted`,
  },
  {
    name: 'new_users',
    sql: `  SELECT project_id, fingerprint, count(*) FILTER (WHERE inserted)::int AS n
    FROM users GROUP BY project_id, fingerprint`,
  },
  {
    name: 'agg',
    sql: `  -- Ties: the earlier arrival is "first", the later arrival is "latest".
  SELECT project_id, fingerprint, min(grouping_version) AS grouping_version,
         count(*)::int AS events, min(ts) AS first_seen,
         (array_agg(release ORDER BY ts, ord))[1] AS first_release,
         max(ts) AS last_seen,
         (array_agg(ord ORDER BY ts DESC, ord DESC))[1] AS last_ord
    FROM fresh GROUP BY project_id, fingerprint`,
  },
  {
    name: 'g',
    sql: `  SELECT a.*, coalesce(nu.n, 0) AS new_users, l.level, l.logger,
         l.release AS last_release, l.title, l.type, l.message, l.culprit,
         l.platform, l.event_id AS last_event_id
    FROM agg a
    JOIN fresh l ON l.ord = a.last_ord
    LEFT JOIN new_users nu
      ON nu.project_id = a.project_id AND nu.fingerprint = a.fingerprint`,
  },
];
