import { P } from './flush-params';
import type { FlushStep } from './flush-step';

/**
 * Release health of the admitted requests: `session` items (one row per
 * session id, its worst state so far) and `sessions` aggregates (counts
 * per release, environment and start).
 */
export const RELEASE_HEALTH: readonly FlushStep[] = [
  {
    name: 'sessions',
    sql: `  INSERT INTO error_tracking.release_sessions AS rs
         (project_id, sid, release, environment, started_at, last_seen,
          errored, crashed, abnormal)
  SELECT ok.project_id, s.sid, min(s.release), min(s.environment), min(s.started),
         max(s.seen), bool_or(s.errored), bool_or(s.crashed), bool_or(s.abnormal)
    FROM unnest(
        ${P.sessionRequests}::int[], ${P.sessionIds}::text[],
        ${P.sessionReleases}::text[], ${P.sessionEnvironments}::text[],
        ${P.sessionStartedAts}::timestamptz[], ${P.sessionSeenAts}::timestamptz[],
        ${P.sessionErrored}::bool[], ${P.sessionCrashed}::bool[],
        ${P.sessionAbnormal}::bool[]
      )
         AS s(req, sid, release, environment, started, seen, errored, crashed, abnormal)
    JOIN ok ON ok.req = s.req
   GROUP BY ok.project_id, s.sid ORDER BY 1, 2
  ON CONFLICT (project_id, sid) DO UPDATE SET
    started_at = least(rs.started_at, excluded.started_at),
    last_seen = greatest(rs.last_seen, excluded.last_seen),
    errored = rs.errored OR excluded.errored,
    crashed = rs.crashed OR excluded.crashed,
    abnormal = rs.abnormal OR excluded.abnormal`,
  },
  {
    name: 'buckets',
    sql: `  INSERT INTO error_tracking.release_session_buckets AS b
         (project_id, release, environment, started, exited, errored, crashed, abnormal)
  SELECT ok.project_id, x.release, x.environment, x.started,
         sum(x.exited), sum(x.errored), sum(x.crashed), sum(x.abnormal)
    FROM unnest(
        ${P.bucketRequests}::int[], ${P.bucketReleases}::text[],
        ${P.bucketEnvironments}::text[], ${P.bucketStarts}::timestamptz[],
        ${P.bucketExited}::int[], ${P.bucketErrored}::int[], ${P.bucketCrashed}::int[],
        ${P.bucketAbnormal}::int[]
      )
         AS x(req, release, environment, started, exited, errored, crashed, abnormal)
    JOIN ok ON ok.req = x.req
   GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (project_id, release, environment, started) DO UPDATE SET
    exited = b.exited + excluded.exited,
    errored = b.errored + excluded.errored,
    crashed = b.crashed + excluded.crashed,
    abnormal = b.abnormal + excluded.abnormal`,
  },
];
