/**
 * How far one page of a filtered events list reads into an error's events.
 * An event matches on its payload, which no index covers; bounding the read
 * keeps a page's cost fixed however many events the error has (the page
 * may come back short, its cursor continuing where the read stopped).
 */
export const EVENT_SEARCH_SCAN_MAX = 1_000;

/** `%`, `_` and `\` are literal in a search. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The SQL condition (on a row of `error_tracking.events`) of an events-list
 * search, its parameters appended to `params`: the free text in the event's
 * title, message, culprit or transaction, as the errors list's `search`.
 * The one place the events list reads a search; a search syntax replaces it.
 */
export function eventSearchCondition(
  search: string,
  params: unknown[],
): string {
  params.push(likePattern(search));
  const p = `$${params.length}`;
  return `(payload->>'title' ILIKE ${p} OR payload->>'message' ILIKE ${p}
        OR payload->>'culprit' ILIKE ${p} OR payload->>'transaction' ILIKE ${p})`;
}
