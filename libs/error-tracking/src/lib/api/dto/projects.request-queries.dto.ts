import { GitLabQuery } from '../../http/gitlab-params';
import { PROJECT_ORDERS } from '../../projects/project.types';

/** `GET /projects` (and `page`, `per_page`). */
export const LIST_PROJECTS_QUERY = new GitLabQuery({
  // Anything but `keyset` pages by offset, as GitLab does.
  pagination: {
    type: 'string',
    doc: {
      enum: ['offset', 'keyset'],
      description: 'Keyset pagination needs `order_by=id` (the default then).',
    },
  },
  order_by: { type: 'string', oneOf: PROJECT_ORDERS },
  sort: { type: 'string', oneOf: ['asc', 'desc'] as const },
  id_after: {
    type: 'integer',
    doc: { description: 'Keyset, ascending: the page after this id.' },
  },
  id_before: {
    type: 'integer',
    doc: { description: 'Keyset, descending: the page after this id.' },
  },
});
