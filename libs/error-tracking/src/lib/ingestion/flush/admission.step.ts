import { P } from './flush-params';
import type { FlushStep } from './flush-step';

/**
 * Admission, decided per request inside the flush so every replica agrees:
 * a request drained from a spool is recorded as drained, and skipped whole
 * when it was already (`replayed`: committed before a crash kept it in the
 * spool); the key still active and its project's tracking still on (a
 * deleted key stops at once everywhere), then the key's rate-limit windows
 * of the current minute, one per Sentry data category, shared by all
 * replicas: a request past the limit in any category it records is refused
 * whole (`limited`). `ok` holds the admitted requests; every later step
 * keeps only their rows.
 */
export const ADMISSION: readonly FlushStep[] = [
  {
    name: 'requests',
    sql: `  SELECT * FROM unnest(
      ${P.requestIndexes}::int[], ${P.requestKeyIds}::int[],
      ${P.requestProjectIds}::int[], ${P.requestSpoolIds}::uuid[],
      ${P.requestSpoolEntries}::bigint[]
    )
         AS r(req, key_id, project_id, spool_id, spool_entry)`,
  },
  {
    name: 'drained',
    sql: `  INSERT INTO error_tracking.drained_spool_requests
         (spool_id, request_id, drained_at)
  SELECT spool_id, spool_entry, ${P.now}::timestamptz FROM requests
   WHERE spool_id IS NOT NULL ORDER BY 1, 2
  ON CONFLICT DO NOTHING
  RETURNING spool_id, request_id`,
  },
  {
    name: 'replayed',
    sql: `  SELECT r.req FROM requests r
   WHERE r.spool_id IS NOT NULL
     AND NOT EXISTS (
       SELECT 1 FROM drained d
        WHERE d.spool_id = r.spool_id AND d.request_id = r.spool_entry)`,
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
     AND r.key_id IN (SELECT key_id FROM allowed)
     AND r.req NOT IN (SELECT req FROM replayed)`,
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
           WHEN rp.req IS NOT NULL THEN 'replayed'
           WHEN a.key_id IS NULL THEN 'forbidden'
           WHEN l.req IS NOT NULL THEN 'rate_limited'
           ELSE 'ok'
         END AS verdict
    FROM requests r
    LEFT JOIN replayed rp ON rp.req = r.req
    LEFT JOIN allowed a ON a.key_id = r.key_id
    LEFT JOIN limited l ON l.req = r.req`,
  },
  {
    name: 'ok',
    sql: `  SELECT v.req, r.project_id FROM verdicts v JOIN requests r USING (req)
   WHERE v.verdict = 'ok'`,
  },
];
