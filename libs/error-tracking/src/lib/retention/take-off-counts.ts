import type { Transaction } from '../persistence/error-tracking.database';

/** One key column of a count table, and its values (one per row to change). */
export interface KeyColumn {
  readonly column: string;
  /** Its PostgreSQL array type: `bigint[]`, `text[]`, ... */
  readonly arrayType: string;
  readonly values: readonly unknown[];
}

/**
 * Takes `n[i]` off the `count` of the row the keys' i-th values name, then
 * deletes those rows left at 0 or less, in the caller's transaction (which
 * has locked them in key order).
 */
export async function takeOffCounts(
  tx: Transaction,
  table: 'error_tags' | 'error_hourly_counts',
  keys: readonly KeyColumn[],
  n: readonly number[],
): Promise<void> {
  const unnest = (withCount: boolean) => {
    const arrays = keys.map((key, i) => `$${i + 1}::${key.arrayType}`);
    const names = keys.map((key) => key.column);
    if (withCount) {
      arrays.push(`$${keys.length + 1}::int[]`);
      names.push('n');
    }
    return `unnest(${arrays.join(', ')}) AS x(${names.join(', ')})`;
  };
  const match = keys.map((key) => `c.${key.column} = x.${key.column}`);
  const values = keys.map((key) => key.values);
  await tx.rows(
    `UPDATE error_tracking.${table} c SET count = c.count - x.n
       FROM ${unnest(true)} WHERE ${match.join(' AND ')}`,
    [...values, n],
  );
  await tx.rows(
    `DELETE FROM error_tracking.${table} c USING ${unnest(false)}
      WHERE ${match.join(' AND ')} AND c.count <= 0`,
    values,
  );
}
