import { P } from './flush-params';
import type { FlushStep } from './flush-step';

/**
 * The rows beside the error that say the same as its events: the events
 * themselves (in their day's partition), the hourly counts per
 * environment (the frequency charts) and the environments and releases seen (the list's filters,
 * kept while an event with them is: `last_seen` by time or arrival).
 */
export const EVENT_ROWS: readonly FlushStep[] = [
  {
    name: 'stored',
    sql: `  INSERT INTO error_tracking.events
         (error_id, timestamp, event_id, received_at, project_id, level, release,
          environment, tags, payload)
  SELECT up.id, f.ts, f.event_id, f.received_at, f.project_id, f.level, f.release,
         f.environment, ts.tags, (${P.eventPayloads}::jsonb) -> (f.ord::int - 1)
    FROM fresh f
    JOIN up ON up.project_id = f.project_id AND up.fingerprint = f.fingerprint
    JOIN tag_sets ts ON ts.ord = f.ord`,
  },
  {
    name: 'hourly',
    sql: `  INSERT INTO error_tracking.error_hourly_counts AS h (error_id, hour, environment, count)
  SELECT up.id, to_timestamp(floor(extract(epoch FROM f.ts) / 3600) * 3600), f.environment, count(*)
    FROM fresh f
    JOIN up ON up.project_id = f.project_id AND up.fingerprint = f.fingerprint
   GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (error_id, hour, environment) DO UPDATE SET count = h.count + excluded.count`,
  },
  {
    name: 'facets',
    sql: `  INSERT INTO error_tracking.error_facets AS fa (error_id, kind, value, last_seen)
  SELECT up.id, x.kind, x.value, max(greatest(f.ts, f.received_at))
    FROM fresh f
    JOIN up ON up.project_id = f.project_id AND up.fingerprint = f.fingerprint
    CROSS JOIN LATERAL (VALUES ('environment', f.environment), ('release', f.release))
         AS x(kind, value)
   WHERE x.value IS NOT NULL
   GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (error_id, kind, value)
    DO UPDATE SET last_seen = greatest(fa.last_seen, excluded.last_seen)`,
  },
];
