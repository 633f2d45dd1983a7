import { bind, containsPattern, wildcardPattern } from './search-sql';
import type { SearchTerm } from './sentry-search';

const COUNT_OPS = { '>': '>', '>=': '>=', '<': '<', '<=': '<=', '=': '=' };
const TIME_COLUMNS = { firstSeen: 'first_seen', lastSeen: 'last_seen' };

/**
 * The WHERE terms of a search over a project's errors (`e`, the errors
 * table), each adding its parameters to `params`. Tag terms read the
 * per-error tag counts (one primary-key probe per error), never events: an
 * error matches `key:value` while a kept event carries the value, and
 * `!key:value` while none does.
 */
export function errorSearchConditions(
  terms: readonly SearchTerm[],
  params: unknown[],
): string[] {
  const tagExists = (key: string, value: string | undefined): string => {
    const k = bind(params, key);
    if (value === undefined)
      return `EXISTS (SELECT 1 FROM error_tracking.error_tags t
                       WHERE t.error_id = e.id AND t.key = ${k})`;
    const pattern = wildcardPattern(value);
    const v = bind(params, pattern ?? value);
    return `EXISTS (SELECT 1 FROM error_tracking.error_tags t
                     WHERE t.error_id = e.id AND t.key = ${k}
                       AND t.value ${pattern === undefined ? '=' : 'LIKE'} ${v})`;
  };
  return terms.map((term) => {
    switch (term.kind) {
      case 'text': {
        const p = bind(params, containsPattern(term.text));
        return `(e.title ILIKE ${p} OR e.message ILIKE ${p} OR e.culprit ILIKE ${p}
                 OR EXISTS (SELECT 1 FROM error_tracking.error_tags t
                             WHERE t.error_id = e.id AND t.value ILIKE ${p}))`;
      }
      case 'tag':
        return `${term.negated ? 'NOT ' : ''}${tagExists(term.key, term.value)}`;
      case 'has':
        return `${term.negated ? 'NOT ' : ''}${tagExists(term.key, undefined)}`;
      case 'status':
        return `e.status ${term.negated ? '<>' : '='} ${bind(params, term.status)}`;
      case 'time':
        // `timestamp` is refused for errors by the parser.
        return `e.${TIME_COLUMNS[term.field as 'firstSeen' | 'lastSeen']} ${term.op} ${bind(params, term.at)}::timestamptz`;
      case 'count':
        return `e.count ${COUNT_OPS[term.op]} ${bind(params, term.value)}::bigint`;
    }
  });
}
