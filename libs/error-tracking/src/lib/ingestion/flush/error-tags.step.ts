import { P } from './flush-params';
import type { FlushStep } from './flush-step';

/**
 * The batch's tag sets (one JSON object per event, by its position in the
 * batch), parsed once for the steps that read them.
 */
export const TAG_SETS: FlushStep = {
  name: 'tag_sets',
  sql: `  SELECT ord, tags
    FROM jsonb_array_elements(${P.eventTagSets}::jsonb) WITH ORDINALITY AS t(tags, ord)`,
};

/**
 * Each error's tag distribution, from this flush's new events: per (error,
 * key, value) the events that carry it, when the first of them happened
 * (by its time, as the error's own first sighting) and when the latest was
 * seen (by time or arrival, as retention expires events). A value counted
 * before first_seen existed keeps none: its first sighting is unknown, and
 * readers take the error's. Written after
 * the error rows and in key order, as retention locks them.
 */
export const ERROR_TAGS: FlushStep = {
  name: 'tag_counts',
  sql: `  INSERT INTO error_tracking.error_tags AS t (error_id, key, value, count, first_seen, last_seen)
  SELECT up.id, x.key, x.value, count(*), min(f.ts), max(greatest(f.ts, f.received_at))
    FROM fresh f
    JOIN up ON up.project_id = f.project_id AND up.fingerprint = f.fingerprint
    JOIN tag_sets ts ON ts.ord = f.ord
    CROSS JOIN LATERAL jsonb_each_text(ts.tags) AS x(key, value)
   GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (error_id, key, value) DO UPDATE SET
    count = t.count + excluded.count,
    first_seen = CASE WHEN t.first_seen IS NOT NULL
      THEN least(t.first_seen, excluded.first_seen) END,
    last_seen = greatest(t.last_seen, excluded.last_seen)`,
};
