import { P } from './flush-params';
import type { FlushStep } from './flush-step';

/**
 * An ignored error's condition met by this flush (Sentry's snooze ending):
 * its time has passed, or its totals reach the counts it waits for.
 */
const IGNORE_ENDS = `e.status = 'ignored' AND (
      e.ignored_until <= ${P.now}::timestamptz
      OR e.count + excluded.count >= e.ignored_until_count
      OR e.user_count + excluded.user_count >= e.ignored_until_user_count)`;

/**
 * Each error of the batch upserted once with the batch's aggregates (`up`):
 * counts add up, first seen keeps the earliest, the latest event's fields
 * follow the latest event. A `resolved` error becomes `unresolved` (a
 * regression, marked with this flush's id); `ignored` stays ignored until
 * its condition, if it has one, is met (then it is `unresolved` again, with
 * no alert: nothing regressed). The
 * `frequent` window count restarts with each window.
 */
export const ERROR_UPSERT: FlushStep = {
  name: 'up',
  sql: `  INSERT INTO error_tracking.errors AS e
         (project_id, fingerprint, grouping_version, title, type, message, culprit,
          platform, level, logger, status, count, user_count, first_seen, last_seen,
          first_release, last_release, last_event_id, created_at, updated_at,
          alert_window_start, alert_window_events)
  SELECT g.project_id, fingerprint, grouping_version, title, type, message, culprit,
         platform, level, logger, 'unresolved', events, new_users, first_seen, last_seen,
         first_release, last_release, last_event_id, ${P.now}, ${P.now},
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
    status = CASE WHEN e.status = 'resolved' OR (${IGNORE_ENDS}) THEN 'unresolved'
                  ELSE e.status END,
    ignored_until = CASE WHEN ${IGNORE_ENDS} THEN NULL ELSE e.ignored_until END,
    ignored_until_count = CASE WHEN ${IGNORE_ENDS} THEN NULL ELSE e.ignored_until_count END,
    ignored_until_user_count = CASE WHEN ${IGNORE_ENDS}
                                    THEN NULL ELSE e.ignored_until_user_count END,
    regressed_at = CASE WHEN e.status = 'resolved' THEN ${P.now} ELSE e.regressed_at END,
    regression_flush = CASE WHEN e.status = 'resolved' THEN ${P.flushId}::uuid
                            ELSE e.regression_flush END,
    alert_window_start = excluded.alert_window_start,
    alert_window_events = CASE
      WHEN excluded.alert_window_start IS NULL THEN 0
      WHEN e.alert_window_start = excluded.alert_window_start
        THEN e.alert_window_events + excluded.alert_window_events
      ELSE excluded.alert_window_events END,
    updated_at = ${P.now}
  RETURNING id, project_id, fingerprint, issue_iid, status, (xmax = 0) AS inserted,
            alert_window_start, alert_window_events,
            coalesce(regression_flush = ${P.flushId}::uuid, false) AS regressed`,
};
