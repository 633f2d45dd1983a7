import { GitLabQuery } from '../../http/gitlab-params';

/** `GET /projects/:id/issues` (and `page`, `per_page`). */
export const LIST_ISSUES_QUERY = new GitLabQuery({
  state: { type: 'string', oneOf: ['opened', 'closed', 'all'] as const },
});
