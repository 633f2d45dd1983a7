import type { Transaction } from '../persistence/error-tracking.database';

/**
 * Takes a retention batch's deleted events off their errors' tag counts
 * (`[error id, key, value, events]`), in the batch's transaction after the
 * errors' and hours' rows: locked in key order, as the flush writes them,
 * and a value no kept event carries any more goes.
 */
export async function subtractTags(
  gone: ReadonlyArray<readonly [string, string, string, number]>,
  tx: Transaction,
): Promise<void> {
  if (gone.length === 0) return;
  const values = [
    gone.map((g) => g[0]),
    gone.map((g) => g[1]),
    gone.map((g) => g[2]),
    gone.map((g) => g[3]),
  ];
  await tx.rows(
    `SELECT 1 FROM error_tracking.error_tags t
       JOIN unnest($1::bigint[], $2::text[], $3::text[]) AS x(error_id, key, value)
         ON t.error_id = x.error_id AND t.key = x.key AND t.value = x.value
      ORDER BY t.error_id, t.key, t.value FOR UPDATE OF t`,
    values.slice(0, 3),
  );
  await tx.rows(
    `UPDATE error_tracking.error_tags t SET count = t.count - x.n
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::int[]) AS x(error_id, key, value, n)
      WHERE t.error_id = x.error_id AND t.key = x.key AND t.value = x.value`,
    values,
  );
  await tx.rows(
    `DELETE FROM error_tracking.error_tags t
      USING unnest($1::bigint[], $2::text[], $3::text[]) AS x(error_id, key, value)
      WHERE t.error_id = x.error_id AND t.key = x.key AND t.value = x.value
        AND t.count <= 0`,
    values.slice(0, 3),
  );
}
