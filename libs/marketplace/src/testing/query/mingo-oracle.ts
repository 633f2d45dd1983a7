import { Query } from 'mingo';

import type { Doc } from './random-documents';

/** mingo lacks the x option; the generated patterns hold no whitespace. */
function forMingo(filter: unknown): unknown {
  if (Array.isArray(filter)) return filter.map(forMingo);
  if (typeof filter !== 'object' || filter === null) return filter;
  return Object.fromEntries(
    Object.entries(filter).map(([key, value]) => [
      key,
      key === '$options' ? String(value).replace('x', '') : forMingo(value),
    ]),
  );
}

/** The documents mingo's MongoDB semantics select, in their order. */
export function mingoFind(filter: unknown, docs: readonly Doc[]): Doc[] {
  return new Query(forMingo(filter) as Doc).find<Doc>(docs as Doc[]).all();
}
