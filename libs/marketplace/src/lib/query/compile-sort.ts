import { parsePath } from './field-path';
import { badRequest, isPlainObject } from './query-errors';
import type { SqlParams } from './sql-params';

const MAX_SORT_FIELDS = 32;

/**
 * `{field: 1|-1, ...}` as an ORDER BY list (without the keyword), in MongoDB's
 * cross-type order: missing and null, numbers, strings, objects, arrays,
 * booleans. Ties are left to the caller (which appends `_id`).
 */
export function compileSort(
  sort: unknown,
  doc: string,
  params: SqlParams,
): string {
  if (sort === undefined || sort === null) return '';
  if (!isPlainObject(sort)) throw badRequest('sort must be a JSON object');
  const entries = Object.entries(sort);
  if (entries.length > MAX_SORT_FIELDS) {
    throw badRequest(`sort takes at most ${MAX_SORT_FIELDS} fields`);
  }
  return entries
    .map(([field, direction]) => {
      if (direction !== 1 && direction !== -1) {
        throw badRequest(`sort direction of "${field}" must be 1 or -1`);
      }
      const segments = safePath(field);
      const value = `(${doc} #> ${params.add(segments)}::text[])`;
      const order = direction === 1 ? 'ASC' : 'DESC';
      return sortKeys(value)
        .map((key) => `${key} ${order}`)
        .join(', ');
    })
    .join(', ');
}

function safePath(field: string): string[] {
  try {
    return parsePath(field);
  } catch {
    throw badRequest(`"${field}" is not a valid sort field`);
  }
}

function sortKeys(value: string): string[] {
  const type = `jsonb_typeof(${value})`;
  return [
    `CASE ${type} WHEN 'number' THEN 1 WHEN 'string' THEN 2 WHEN 'object' THEN 3 WHEN 'array' THEN 4 WHEN 'boolean' THEN 5 ELSE 0 END`,
    `CASE WHEN ${type} = 'number' THEN (${value})::numeric END`,
    `CASE WHEN ${type} = 'string' THEN ${value} #>> '{}' END COLLATE "C"`,
    `CASE WHEN ${type} IN ('object', 'array', 'boolean') THEN ${value} END`,
  ];
}
