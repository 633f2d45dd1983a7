import { ErrorTrackingError } from '../common/error-tracking.errors';
import type { ErrorSort, ErrorStatus } from '../errors/error.types';
import type { ErrorFilter } from '../errors/errors.repository';
import { SENTRY_STATUSES } from '../errors/sentry-search';

/** Sentry's default when a request has no `query` at all. */
export const DEFAULT_ISSUE_QUERY = 'is:unresolved';
const MAX_QUERY = 200;

export { SENTRY_STATUSES };

/** Sentry's `sort` names of the sorts the errors have. */
const SORTS: Readonly<Record<string, ErrorSort>> = {
  date: 'last_seen',
  new: 'first_seen',
  freq: 'frequency',
};

export type IssueFilter = Omit<ErrorFilter, 'projectId'>;

function invalid(message: string): ErrorTrackingError {
  return ErrorTrackingError.badRequest(message);
}

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"')
    ? value.slice(1, -1)
    : value;
}

/**
 * The part of Sentry's issue search that the stored errors answer:
 * `is:<status>`, `environment:<name>`, `release:<version>` and free text
 * (matched in title, message and culprit). Any other `key:value` is
 * refused, not ignored, so a search never silently widens.
 */
export function parseIssueQuery(query: string | undefined): IssueFilter {
  const text = query ?? DEFAULT_ISSUE_QUERY;
  if (text.length > MAX_QUERY)
    throw invalid(`query: at most ${MAX_QUERY} characters`);
  const filter: {
    status?: ErrorStatus;
    environment?: string;
    release?: string;
  } = {};
  const words: string[] = [];
  for (const token of text.match(/(?:[^\s:"]+:)?"[^"]*"|\S+/g) ?? []) {
    const colon = token.indexOf(':');
    if (colon <= 0 || token.startsWith('"')) {
      words.push(unquote(token));
      continue;
    }
    const key = token.slice(0, colon);
    const value = unquote(token.slice(colon + 1));
    if (key === 'is') {
      const status = SENTRY_STATUSES[value];
      if (!status || (filter.status && filter.status !== status))
        throw invalid(`query: unsupported status filter is:${value}`);
      filter.status = status;
    } else if (key === 'environment' || key === 'release') {
      if (filter[key] !== undefined && filter[key] !== value)
        throw invalid(`query: one ${key} at most`);
      filter[key] = value;
    } else {
      throw invalid(
        `query: ${key}: is not a supported search key here (is, environment, release and free text are)`,
      );
    }
  }
  const search = words.join(' ').trim();
  return { ...filter, ...(search ? { search } : {}) };
}

/** Sentry's `sort`: `date` (the default), `new` or `freq`. */
export function parseIssueSort(sort: string | undefined): ErrorSort {
  if (sort === undefined || sort === '') return 'last_seen';
  const found = SORTS[sort];
  if (!found)
    throw invalid(`sort: one of ${Object.keys(SORTS).join(', ')} is supported`);
  return found;
}
