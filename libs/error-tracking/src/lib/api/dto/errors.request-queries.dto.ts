import { GitLabQuery } from '../../http/gitlab-params';
import {
  ERROR_SORTS,
  ERROR_STATUSES,
  EVENT_LEVELS,
} from '../../errors/error.types';

/** What narrows a list of errors (and the errors a bulk change takes). */
export const ERROR_FILTER_FIELDS = {
  search: {
    type: 'string',
    max: 1_000,
    doc: { description: 'In title, message, culprit.' },
  },
  search_term: {
    type: 'string',
    max: 1_000,
    doc: { description: 'As `search` (the name GitLab’s pages send).' },
  },
  query: {
    type: 'string',
    max: 1_000,
    doc: {
      description:
        'Sentry’s search syntax: free text, `key:value` and `!key:value` for any tag, `is:`, `level:`, `release:`, `environment:`, `user.email:`, `has:key`, `firstSeen:`/`lastSeen:` (`-24h`, `>2026-11-01`), `times_seen:>N`, quoted values.',
      example: 'is:unresolved browser.name:Chrome !environment:staging',
    },
  },
  environment: {
    type: 'string',
    max: 200,
    doc: {
      description:
        'Errors with a kept event in this environment; a list’s `count`, `frequency` and `frequency` sort are then this environment’s.',
    },
  },
  release: { type: 'string', max: 200 },
  level: { type: 'string', oneOf: EVENT_LEVELS },
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
        'Free text in title, message, culprit, exception values and tag values (with `query`, both must match); a search reads at most 1,000 events a page, so a page may be short and still have a next one.',
    },
  },
  cursor: { type: 'string', max: 1_000 },
  query: {
    type: 'string',
    max: 1_000,
    doc: {
      description:
        'Sentry’s search syntax over the events: free text, `key:value`, `!key:value`, `has:key`, `timestamp:`.',
      example: 'browser.name:Chrome !user:"id:42"',
    },
  },
});

/** `GET .../error_tracking/release_health`. */
export const RELEASE_HEALTH_QUERY = new GitLabQuery({
  release: { type: 'string', max: 200 },
  environment: { type: 'string', max: 200 },
});
