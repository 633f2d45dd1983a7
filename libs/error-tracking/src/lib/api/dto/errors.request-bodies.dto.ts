import { GitLabBody } from '../../http/gitlab-params';
import {
  ERROR_STATUSES,
  MAX_BULK_ERRORS,
  MAX_IGNORE_COUNT,
  MAX_IGNORE_MINUTES,
} from '../../errors/error.types';
import type { ErrorStatus, IgnoreUntil } from '../../errors/error.types';
import { ERROR_FILTER_FIELDS } from './errors.request-queries.dto';
import { MAX_MERGED_ERRORS } from '../../errors/error-merge.service';
import { ignoreUntilOf } from '../../errors/ignore-until';

/** Sentry's snooze conditions, with `status: ignored` only; the first reached reopens the error. */
const IGNORE_FIELDS = {
  ignore_minutes: {
    type: 'integer',
    doc: {
      description: `With \`status: ignored\`: reopen after this many minutes (1 to ${MAX_IGNORE_MINUTES}).`,
    },
  },
  ignore_count: {
    type: 'integer',
    doc: {
      description: `With \`status: ignored\`: reopen after this many more events (1 to ${MAX_IGNORE_COUNT}).`,
    },
  },
  ignore_user_count: {
    type: 'integer',
    doc: {
      description: `With \`status: ignored\`: reopen after this many more distinct users (1 to ${MAX_IGNORE_COUNT}).`,
    },
  },
} as const;

/** `PUT .../error_tracking/errors/:error_id`. */
export const UPDATE_ERROR_BODY = new GitLabBody('UpdateErrorBodyDto', {
  status: { type: 'string', required: true, oneOf: ERROR_STATUSES },
  ...IGNORE_FIELDS,
});

/** `PUT .../error_tracking/errors`: one status for a selection, or for a search. */
export const BULK_UPDATE_ERRORS_BODY = new GitLabBody(
  'BulkUpdateErrorsBodyDto',
  {
    status: { type: 'string', required: true, oneOf: ERROR_STATUSES },
    ...IGNORE_FIELDS,
    error_ids: {
      type: 'list',
      doc: {
        type: [String],
        description: `The errors to change (at most ${MAX_BULK_ERRORS}); or \`all_matching\`.`,
      },
    },
    all_matching: {
      type: 'boolean',
      doc: {
        description: `Instead of \`error_ids\`: every error the filters below take; more than ${MAX_BULK_ERRORS} is a 400 and changes nothing.`,
      },
    },
    current_status: {
      type: 'string',
      oneOf: ERROR_STATUSES,
      doc: {
        description:
          'With `all_matching`: the errors of this status (`unresolved` by default, unless an `is:` term of `query` names one); `search`, `query`, `level`, `environment` and `release` narrow them as on the list.',
      },
    },
    ...ERROR_FILTER_FIELDS,
  },
);

/** `POST .../error_tracking/errors/:error_id/merge`. */
export const MERGE_ERRORS_BODY = new GitLabBody('MergeErrorsBodyDto', {
  error_ids: {
    type: 'list',
    required: true,
    doc: {
      type: [String],
      description: `The errors merged into this one (1 to ${MAX_MERGED_ERRORS}).`,
    },
  },
});

/** The ignore condition a body's `ignore_*` fields give (checked: 400 otherwise). */
export function ignoreUntilOfBody(body: {
  readonly status: ErrorStatus;
  readonly ignore_minutes?: number | undefined;
  readonly ignore_count?: number | undefined;
  readonly ignore_user_count?: number | undefined;
}): IgnoreUntil {
  return ignoreUntilOf(body.status, {
    minutes: { name: 'ignore_minutes', value: body.ignore_minutes },
    events: { name: 'ignore_count', value: body.ignore_count },
    users: { name: 'ignore_user_count', value: body.ignore_user_count },
  });
}
