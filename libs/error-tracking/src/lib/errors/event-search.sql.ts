import { bind, containsPattern, wildcardPattern } from './search-sql';
import type { SearchTerm } from './sentry-search';

/**
 * The WHERE terms of a search over one error's events (`ev`): tags from
 * each event's `tags` (events stored before tags were kept have none), free
 * text in its title, message, culprit, exception values and tag values.
 * The parser refuses the error-only keys for events.
 */
export function eventSearchConditions(
  terms: readonly SearchTerm[],
  params: unknown[],
): string[] {
  return terms.map((term) => {
    switch (term.kind) {
      case 'text': {
        const p = bind(params, containsPattern(term.text));
        return `(ev.payload->>'title' ILIKE ${p} OR ev.payload->>'message' ILIKE ${p}
                 OR ev.payload->>'culprit' ILIKE ${p}
                 OR EXISTS (SELECT 1 FROM jsonb_array_elements(
                              CASE WHEN jsonb_typeof(ev.payload->'exception'->'values') = 'array'
                                   THEN ev.payload->'exception'->'values' ELSE '[]' END) x
                             WHERE x->>'value' ILIKE ${p})
                 OR EXISTS (SELECT 1 FROM jsonb_each_text(coalesce(ev.tags, '{}')) t
                             WHERE t.value ILIKE ${p}))`;
      }
      case 'tag': {
        const pattern = wildcardPattern(term.value);
        const k = bind(params, term.key);
        const test =
          pattern === undefined
            ? `coalesce(ev.tags, '{}') @> jsonb_build_object(${k}::text, ${bind(params, term.value)}::text)`
            : `coalesce(ev.tags->>(${k}::text) LIKE ${bind(params, pattern)}, false)`;
        return term.negated ? `NOT ${test}` : test;
      }
      case 'has': {
        const test = `coalesce(ev.tags, '{}') ? ${bind(params, term.key)}::text`;
        return term.negated ? `NOT ${test}` : test;
      }
      case 'time':
        return `ev.timestamp ${term.op} ${bind(params, term.at)}::timestamptz`;
      case 'status':
      case 'count':
        throw new Error(`${term.kind} terms apply to errors, not events`);
    }
  });
}
