import { GitLabBody } from '../../http/gitlab-params';
import { ERROR_STATUSES } from '../../errors/error.types';

/** `PUT .../error_tracking/errors/:error_id`. */
export const UPDATE_ERROR_BODY = new GitLabBody('UpdateErrorBodyDto', {
  status: { type: 'string', required: true, oneOf: ERROR_STATUSES },
});
