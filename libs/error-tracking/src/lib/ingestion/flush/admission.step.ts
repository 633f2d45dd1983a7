import { P } from './flush-params';
import type { FlushStep } from './flush-step';

/**
 * Admission, decided per request inside the flush so every replica agrees:
 * the key still active and its project's tracking still on (a deleted key
 * stops at once everywhere), then the key's rate-limit windows of the
 * current minute, one per Sentry data category, shared by all replicas: a
 * request past the limit in any category it records is refused whole
 * (`limited`). `ok` holds the admitted requests;
 * every later step keeps only their rows.
 */
export const ADMISSION: readonly FlushStep[] = [
  {
    name: 'requests',
    sql: `  SELECT * FROM unnest(
      ${P.requestIndexes}::int[], ${P.requestKeyIds}::int[],
      ${P.requestProjectIds}::int[]
    )
         AS r(req, key_id, project_id)`,
  },
  {
    name: 'allowed',
    sql: `  SELECT k.id AS key_id
    FROM error_tracking.client_keys k
    JOIN error_tracking.projects p ON p.id = k.project_id
   WHERE k.id IN (SELECT key_id FROM requests) AND k.active AND p.tracking_active`,
  },
  {
    name: 'asks',
    sql: `  SELECT q.req, r.key_id, q.category, q.quantity
    FROM unnest(
        ${P.quotaRequests}::int[], ${P.quotaCategories}::text[],
        ${P.quotaQuantities}::int[]
      )
         AS q(req, category, quantity)
    JOIN requests r USING (req)
   WHERE ${P.rateLimit}::int > 0
     AND r.key_id IN (SELECT key_id FROM allowed)`,
  },
  {
    name: 'demand',
    sql: `  SELECT key_id, category, sum(quantity)::int AS quantity
    FROM asks GROUP BY key_id, category`,
  },
  {
    name: 'windows',
    sql: `  INSERT INTO error_tracking.rate_limit_windows AS w
         (key_id, window_start, category, quantity)
  SELECT key_id, ${P.windowStart}::timestamptz, category, quantity FROM demand
   ORDER BY key_id, category
  ON CONFLICT (key_id, window_start, category)
    DO UPDATE SET quantity = w.quantity + excluded.quantity
  RETURNING key_id, category, quantity`,
  },
  {
    name: 'limited',
    sql: `  SELECT DISTINCT req FROM (
      SELECT a.req,
             w.quantity - d.quantity
               + sum(a.quantity) OVER (PARTITION BY a.key_id, a.category ORDER BY a.req)
               AS reached
        FROM asks a
        JOIN demand d USING (key_id, category)
        JOIN windows w USING (key_id, category)
    ) running
   WHERE reached > ${P.rateLimit}::int`,
  },
  {
    name: 'verdicts',
    sql: `  SELECT r.req,
         CASE
           WHEN a.key_id IS NULL THEN 'forbidden'
           WHEN l.req IS NOT NULL THEN 'rate_limited'
           ELSE 'ok'
         END AS verdict
    FROM requests r
    LEFT JOIN allowed a ON a.key_id = r.key_id
    LEFT JOIN limited l ON l.req = r.req`,
  },
  {
    name: 'ok',
    sql: `  SELECT v.req, r.project_id FROM verdicts v JOIN requests r USING (req)
   WHERE v.verdict = 'ok'`,
  },
];
