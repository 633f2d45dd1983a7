import { jsonPath, parsePath } from './field-path';
import { isPlainObject } from '../kinvey/kinvey-doc';
import type { SqlParams } from './sql-params';
import { textFieldSort, textFieldSql } from './text-fields';
import type { TextFields } from './text-fields';
import { MarketplaceError } from '../common/marketplace.errors';

const MAX_SORT_FIELDS = 32;

/**
 * `{field: 1|-1, ...}` as an ORDER BY list (without the keyword), in MongoDB's
 * order: an empty array, missing and null, numbers, strings, objects,
 * arrays (nested in arrays), booleans. An array sorts by its smallest
 * element ascending and its largest descending, and a path through arrays
 * (`available.price`) by the smallest or largest value it reaches, as
 * MongoDB does. Ties are left to the caller (which appends `_id`).
 */
export function compileSort(
  sort: unknown,
  doc: string,
  params: SqlParams,
  textFields: TextFields = new Set(),
): string {
  if (sort === undefined || sort === null) return '';
  if (!isPlainObject(sort))
    throw MarketplaceError.invalidRequest('sort must be a JSON object');
  const entries = Object.entries(sort);
  if (entries.length > MAX_SORT_FIELDS) {
    throw MarketplaceError.invalidRequest(
      `sort takes at most ${MAX_SORT_FIELDS} fields`,
    );
  }
  return entries
    .map(([field, direction]) => {
      if (direction !== 1 && direction !== -1) {
        throw MarketplaceError.invalidRequest(
          `sort direction of "${field}" must be 1 or -1`,
        );
      }
      const order = direction === 1 ? 'ASC' : 'DESC';
      if (textFields.has(field))
        return textFieldSort(textFieldSql(doc, field), order);
      return sortKeys(doc, safePath(field), order, params)
        .map((key) => `${key} ${order}`)
        .join(', ');
    })
    .join(', ');
}

function safePath(field: string): string[] {
  try {
    return parsePath(field);
  } catch {
    throw MarketplaceError.invalidRequest(
      `"${field}" is not a valid sort field`,
    );
  }
}

const RANK = (value: string) =>
  `CASE jsonb_typeof(${value}) WHEN 'null' THEN 0 WHEN 'number' THEN 1 WHEN 'string' THEN 2 WHEN 'object' THEN 3 WHEN 'array' THEN 4 WHEN 'boolean' THEN 5 END`;
const NUMBER = (value: string) =>
  `CASE WHEN jsonb_typeof(${value}) = 'number' THEN (${value})::numeric END`;
const BYTES = (value: string) =>
  `CASE WHEN jsonb_typeof(${value}) = 'string' THEN convert_to(${value} #>> '{}', 'UTF8') END`;
const OTHER = (value: string) =>
  `CASE WHEN jsonb_typeof(${value}) IN ('object', 'array', 'boolean') THEN ${value} END`;

/**
 * Type bracket (-1 for an empty array, 0 for missing or null), number,
 * UTF-8 bytes (code point order), other jsonb. A value reached without
 * crossing an array is read directly; otherwise a subquery picks the
 * smallest or largest value reached.
 */
function sortKeys(
  doc: string,
  segments: readonly string[],
  order: 'ASC' | 'DESC',
  params: SqlParams,
): string[] {
  const value = `(${doc} #> ${params.add([...segments])}::text[])`;
  const direct = [`jsonb_typeof(${value}) IS DISTINCT FROM 'array'`];
  for (let length = 1; length < segments.length; length++) {
    const prefix = params.add(segments.slice(0, length));
    direct.push(
      `jsonb_typeof(${doc} #> ${prefix}::text[]) IS DISTINCT FROM 'array'`,
    );
  }
  const reached = `jsonb_path_query(${doc}, ${params.add(jsonPath(segments))}::jsonpath)`;
  const candidates = `(SELECT q_t.v WHERE jsonb_typeof(q_t.v) <> 'array' UNION ALL SELECT jsonb_array_elements(CASE WHEN jsonb_typeof(q_t.v) = 'array' THEN q_t.v END)) AS q_c(v)`;
  const ordered = [RANK, NUMBER, BYTES, OTHER].map((key) => key('q_c.v'));
  const chosen = `(SELECT q_c.v FROM ${reached} AS q_t(v) CROSS JOIN LATERAL ${candidates} ORDER BY ${ordered.map((key) => `${key} ${order}`).join(', ')} LIMIT 1)`;
  const empty = `EXISTS (SELECT 1 FROM ${reached} AS q_t(v) WHERE q_t.v = '[]'::jsonb)`;
  const fast = direct.join(' AND ');
  return [
    `CASE WHEN ${fast} THEN COALESCE(${RANK(value)}, 0) ELSE COALESCE(${RANK(chosen)}, CASE WHEN ${empty} THEN -1 ELSE 0 END) END`,
    ...[NUMBER, BYTES, OTHER].map(
      (key) => `CASE WHEN ${fast} THEN ${key(value)} ELSE ${key(chosen)} END`,
    ),
  ];
}
