import { GitLabBody } from '../../http/gitlab-params';

/** `POST /users` (parameters in the body or query). */
export const CREATE_USER_BODY = new GitLabBody('CreateUserBodyDto', {
  email: { type: 'string', required: true, max: 255 },
  password: {
    type: 'string',
    max: 1024,
    doc: { minLength: 8, description: 'For the web UI sign-in.' },
  },
  name: { type: 'string', required: true, max: 255 },
  username: { type: 'string', required: true, max: 255 },
  admin: { type: 'boolean', doc: { default: false } },
});

/** `POST /users/:user_id/personal_access_tokens`. */
export const CREATE_TOKEN_BODY = new GitLabBody('CreateTokenBodyDto', {
  name: { type: 'string', required: true, max: 255 },
  // The service checks the scopes' values.
  scopes: {
    type: 'list',
    required: true,
    doc: { enum: ['api', 'read_api'], isArray: true },
  },
  expires_at: {
    type: 'string',
    doc: {
      format: 'date',
      description: 'The token stops working on this day (UTC).',
    },
  },
});
