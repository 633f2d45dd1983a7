import { GitLabBody } from '../../http/gitlab-params';

export const PATCH_SETTING_BODY = new GitLabBody('PatchSettingBodyDto', {
  active: {
    type: 'boolean',
    required: true,
    doc: { description: 'Enable error tracking.' },
  },
  integrated: {
    type: 'boolean',
    doc: { description: 'Use the integrated backend.' },
  },
});

export const PUT_SETTING_BODY = new GitLabBody('PutSettingBodyDto', {
  active: { type: 'boolean', required: true },
  integrated: { type: 'boolean', required: true },
});
