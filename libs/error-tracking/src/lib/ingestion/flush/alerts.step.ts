import { P } from './flush-params';
import type { FlushStep } from './flush-step';

/** The window each `frequent` rule counts in: the error upsert counts per window. */
export const FREQUENT_RULES: FlushStep = {
  name: 'frequent_rules',
  sql: `  -- Projects of this flush with a "frequent" rule (none by default).
  SELECT id AS project_id, alert_frequent_threshold AS threshold,
         to_timestamp(floor(extract(epoch FROM ${P.now}::timestamptz)
                            / (alert_frequent_window_minutes * 60))
                      * alert_frequent_window_minutes * 60) AS window_start
    FROM error_tracking.projects
   WHERE id IN (SELECT DISTINCT project_id FROM g)
     AND alert_frequent_threshold IS NOT NULL`,
};

/**
 * The alerts this flush triggers, in the outbox: a new error, a regression,
 * a `frequent` threshold crossed. Unique per (error, trigger, window), so a
 * storm of events is one alert.
 */
export const ALERTS: readonly FlushStep[] = [
  {
    name: 'triggered',
    sql: `  SELECT id AS error_id, 'new' AS trigger, ${P.now}::timestamptz AS window_start
    FROM up WHERE inserted
  UNION ALL
  SELECT id, 'regression', ${P.now}::timestamptz FROM up WHERE regressed
  UNION ALL
  -- Only the flush that crosses the threshold: one alert per window.
  SELECT up.id, 'frequent', up.alert_window_start
    FROM up
    JOIN frequent_rules r ON r.project_id = up.project_id
    JOIN g ON g.project_id = up.project_id AND g.fingerprint = up.fingerprint
   WHERE up.alert_window_events >= r.threshold
     AND up.alert_window_events - g.events < r.threshold
     AND up.status <> 'ignored'`,
  },
  {
    name: 'alerts',
    sql: `  INSERT INTO error_tracking.alerts
         (project_id, error_id, trigger, window_start, event_id, created_at)
  SELECT up.project_id, t.error_id, t.trigger, t.window_start, g.last_event_id, ${P.now}
    FROM triggered t
    JOIN up ON up.id = t.error_id
    JOIN g ON g.project_id = up.project_id AND g.fingerprint = up.fingerprint
   ORDER BY 2, 3, 4
  ON CONFLICT (error_id, trigger, window_start) DO NOTHING
  RETURNING id`,
  },
];
