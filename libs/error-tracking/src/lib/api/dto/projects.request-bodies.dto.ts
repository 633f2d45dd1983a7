import { ACCESS_LEVELS } from '../../common/error-tracking.constants';
import { GitLabBody } from '../../http/gitlab-params';

/** `POST /projects`: `name`, `path` or both (the handler checks that). */
export const CREATE_PROJECT_BODY = new GitLabBody('CreateProjectBodyDto', {
  name: {
    type: 'string',
    max: 255,
    doc: { description: 'Name; or give only `path`.' },
  },
  path: {
    type: 'string',
    max: 255,
    doc: { description: 'Unique slug; derived from the name when absent.' },
  },
  description: { type: 'string', max: 10_000 },
});

export const ADD_MEMBER_BODY = new GitLabBody('AddMemberBodyDto', {
  user_id: { type: 'integer', required: true },
  access_level: {
    type: 'integer',
    required: true,
    oneOf: ACCESS_LEVELS,
    doc: { description: 'guest 10 .. owner 50' },
  },
});
