import { GitLabBody } from '../../http/gitlab-params';

export const CREATE_ISSUE_BODY = new GitLabBody('CreateIssueBodyDto', {
  title: { type: 'string', required: true, max: 255 },
  description: {
    type: 'string',
    max: 1_048_576,
    doc: { description: 'Markdown.' },
  },
  labels: {
    type: 'list',
    doc: { description: 'Comma-separated label names.' },
  },
});

/** Every field optional; `title`, when given, not blank (the handler). */
export const UPDATE_ISSUE_BODY = new GitLabBody('UpdateIssueBodyDto', {
  title: { type: 'string', max: 255 },
  description: { type: 'string', max: 1_048_576 },
  labels: { type: 'list' },
  state_event: { type: 'string', oneOf: ['close', 'reopen'] as const },
});
