import type { Transaction } from '../persistence/error-tracking.database';
import { takeOffCounts } from './take-off-counts';

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
  ];
  await tx.rows(
    `SELECT 1 FROM error_tracking.error_tags t
       JOIN unnest($1::bigint[], $2::text[], $3::text[]) AS x(error_id, key, value)
         ON t.error_id = x.error_id AND t.key = x.key AND t.value = x.value
      ORDER BY t.error_id, t.key, t.value FOR UPDATE OF t`,
    values,
  );
  await takeOffCounts(
    tx,
    'error_tags',
    [
      {
        column: 'error_id',
        arrayType: 'bigint[]',
        values: values[0] as string[],
      },
      { column: 'key', arrayType: 'text[]', values: values[1] as string[] },
      { column: 'value', arrayType: 'text[]', values: values[2] as string[] },
    ],
    gone.map((g) => g[3]),
  );
}
