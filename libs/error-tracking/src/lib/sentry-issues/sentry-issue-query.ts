import { ErrorTrackingError } from '../common/error-tracking.errors';
import type { ErrorSort, ErrorStatus } from '../errors/error.types';
import type { ErrorListFilter } from '../errors/errors.service';

/** Sentry's `sort` names of the sorts the errors have. */
const SORTS: Readonly<Record<string, ErrorSort>> = {
  date: 'last_seen',
  new: 'first_seen',
  freq: 'frequency',
};

/**
 * The errors an issue request takes: its `query` in the one search syntax
 * of the GitLab API and the pages (`errors/sentry-search.ts`); absent, it
 * is Sentry's default `is:unresolved` (unless a `status` parameter names
 * the status), and empty or without an `is:` term, every status.
 */
export function issueFilter(
  query: string | undefined,
  status?: ErrorStatus,
): ErrorListFilter {
  return {
    query: query ?? '',
    status,
    defaultStatus: query === undefined ? 'unresolved' : undefined,
  };
}

/** Sentry's `sort`: `date` (the default), `new` or `freq`. */
export function parseIssueSort(sort: string | undefined): ErrorSort {
  if (sort === undefined || sort === '') return 'last_seen';
  const found = SORTS[sort];
  if (!found)
    throw ErrorTrackingError.badRequest(
      `sort: one of ${Object.keys(SORTS).join(', ')} is supported`,
    );
  return found;
}
