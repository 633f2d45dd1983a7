import { P } from './flush-params';
import type { FlushStep } from './flush-step';

/**
 * Admission, decided per request inside the flush so every replica agrees:
 * the key still active and its project's tracking still on (a deleted key
 * stops at once everywhere), then the key's rate-limit window of the
 * current minute, shared by all replicas. `ok` holds the admitted requests;
 * every later step keeps only their rows.
 */
export const ADMISSION: readonly FlushStep[] = [
  {
    name: 'requests',
    sql: `  SELECT * FROM unnest(
      ${P.requestIndexes}::int[], ${P.requestKeyIds}::int[],
      ${P.requestProjectIds}::int[], ${P.requestEventCounts}::int[]
    )
         AS r(req, key_id, project_id, events)`,
  },
  {
    name: 'allowed',
    sql: `  SELECT k.id AS key_id
    FROM error_tracking.client_keys k
    JOIN error_tracking.projects p ON p.id = k.project_id
   WHERE k.id IN (SELECT key_id FROM requests) AND k.active AND p.tracking_active`,
  },
  {
    name: 'demand',
    sql: `  SELECT key_id, sum(events)::int AS events
    FROM requests WHERE key_id IN (SELECT key_id FROM allowed)
   GROUP BY key_id`,
  },
  {
    name: 'windows',
    sql: `  INSERT INTO error_tracking.rate_limit_windows AS w (key_id, window_start, events)
  SELECT key_id, ${P.windowStart}::timestamptz, events FROM demand
   WHERE ${P.rateLimit}::int > 0 AND events > 0
   ORDER BY key_id
  ON CONFLICT (key_id, window_start) DO UPDATE SET events = w.events + excluded.events
  RETURNING key_id, events`,
  },
  {
    name: 'verdicts',
    sql: `  SELECT r.req,
         CASE
           WHEN a.key_id IS NULL THEN 'forbidden'
           WHEN ${P.rateLimit}::int > 0
                AND coalesce(w.events - d.events, 0)
                    + sum(r.events) OVER (PARTITION BY r.key_id ORDER BY r.req) > ${P.rateLimit}::int
             THEN 'rate_limited'
           ELSE 'ok'
         END AS verdict
    FROM requests r
    LEFT JOIN allowed a ON a.key_id = r.key_id
    LEFT JOIN demand d ON d.key_id = r.key_id
    LEFT JOIN windows w ON w.key_id = r.key_id`,
  },
  {
    name: 'ok',
    sql: `  SELECT v.req, r.project_id FROM verdicts v JOIN requests r USING (req)
   WHERE v.verdict = 'ok'`,
  },
];
