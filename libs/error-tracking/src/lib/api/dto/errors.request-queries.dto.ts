import { GitLabQuery } from '../../http/gitlab-params';
import { ERROR_SORTS, ERROR_STATUSES } from '../../errors/error.types';

/** What narrows a list of errors (and the errors a bulk change takes). */
export const ERROR_FILTER_FIELDS = {
  search: {
    type: 'string',
    max: 1_000,
    doc: { description: 'In title, message, culprit.' },
  },
  environment: { type: 'string', max: 200 },
  release: { type: 'string', max: 200 },
} as const;

/** `GET .../error_tracking/errors` (and `per_page`, read by the handler). */
export const LIST_ERRORS_QUERY = new GitLabQuery({
  status: { type: 'string', oneOf: ERROR_STATUSES },
  sort: { type: 'string', oneOf: ERROR_SORTS },
  ...ERROR_FILTER_FIELDS,
  cursor: { type: 'string', max: 1_000 },
});

/** `GET .../errors/:error_id/events` (and `per_page`). */
export const LIST_EVENTS_QUERY = new GitLabQuery({
  search: {
    type: 'string',
    max: 1_000,
    doc: {
      description:
        'In title, message, culprit, transaction; each page reads at most 1,000 events, so it may be short and still have a next one.',
    },
  },
  cursor: { type: 'string', max: 1_000 },
});

/** `GET .../error_tracking/release_health`. */
export const RELEASE_HEALTH_QUERY = new GitLabQuery({
  release: { type: 'string', max: 200 },
  environment: { type: 'string', max: 200 },
});
