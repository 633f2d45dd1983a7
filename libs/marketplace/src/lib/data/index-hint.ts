import { isPlainObject } from './kinvey-doc';
import type { ParamList } from './query-compiler.port';

const SCALAR = new Set(['string', 'number', 'boolean']);
const PLAIN_FIELD = /^[A-Za-z0-9_-]+$/;

/**
 * An index-friendly condition implied by a filter, to AND with the compiled
 * one: each top-level `{field: scalar}` of the filter needs the document to
 * contain `{field: scalar}` or, by MongoDB's array rule, `{field: [scalar]}`,
 * which the GIN index on `doc` answers. Never changes the result (the
 * compiled filter still decides); undefined when nothing qualifies.
 */
export function containmentHint(
  filter: unknown,
  doc: string,
  params: ParamList,
): string | undefined {
  if (!isPlainObject(filter)) return undefined;
  const parts: string[] = [];
  for (const [field, value] of Object.entries(filter)) {
    if (!PLAIN_FIELD.test(field) || !SCALAR.has(typeof value)) continue;
    const single = params.add(JSON.stringify({ [field]: value }));
    const inArray = params.add(JSON.stringify({ [field]: [value] }));
    parts.push(`(${doc} @> ${single}::jsonb OR ${doc} @> ${inArray}::jsonb)`);
  }
  return parts.length > 0 ? parts.join(' AND ') : undefined;
}
