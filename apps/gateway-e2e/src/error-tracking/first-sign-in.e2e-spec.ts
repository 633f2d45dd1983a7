import request from 'supertest';

import {
  ROOT_TOKEN,
  createUser,
  startErrorTrackingGateway,
} from './error-tracking-support';
import type { ErrorTrackingGateway } from './error-tracking-support';
import { csrfOf, initialRootPassword } from './web-support';

const NEW_PASSWORD_PATH = '/-/profile/password/new';

/** Signs `username` in; the agent keeps the session cookie. */
async function signIn(
  gw: ErrorTrackingGateway,
  username: string,
  password: string,
  redirectTo = '/',
) {
  const agent = request.agent(gw.url);
  const form = await agent.get('/users/sign_in').expect(200);
  const res = await agent
    .post('/users/sign_in')
    .type('form')
    .send({
      _csrf: csrfOf(form.text),
      username,
      password,
      redirect_to: redirectTo,
    });
  return { agent, res };
}

describe('first sign-in with the generated root password (e2e)', () => {
  let gw: ErrorTrackingGateway;
  let generated: string;

  beforeAll(async () => {
    gw = await startErrorTrackingGateway();
    generated = await initialRootPassword(gw);
  });

  afterAll(() => gw?.close());

  it('asks for a new password before anything else; the API token keeps working; the new one replaces the generated one', async () => {
    const { agent, res } = await signIn(
      gw,
      'root',
      generated,
      '/projects?sort=name',
    );
    expect(res.status).toBe(303);
    for (const path of ['/', '/projects', '/projects/1/error_tracking'])
      await agent.get(path).expect(302).expect('Location', NEW_PASSWORD_PATH);
    // A form elsewhere is refused the same way, before it does anything.
    await agent
      .post('/projects')
      .type('form')
      .send({ name: 'not yet' })
      .expect(303)
      .expect('Location', NEW_PASSWORD_PATH);
    await gw.http
      .get('/api/v4/user')
      .set('PRIVATE-TOKEN', ROOT_TOKEN)
      .expect(200);

    const page = await agent.get(NEW_PASSWORD_PATH).expect(200);
    expect(page.text).toContain('Set up new password');
    const change = (fields: Record<string, string>) =>
      agent
        .post('/-/profile/password')
        .type('form')
        .send({ _csrf: csrfOf(page.text), ...fields });

    for (const [fields, problem] of [
      [
        {
          current_password: 'wrong',
          password: 'a new secret 1',
          password_confirmation: 'a new secret 1',
        },
        'valid current password',
      ],
      [
        {
          current_password: generated,
          password: generated,
          password_confirmation: generated,
        },
        'must differ from the current one',
      ],
      [
        {
          current_password: generated,
          password: 'short',
          password_confirmation: 'short',
        },
        'too short',
      ],
      [
        {
          current_password: generated,
          password: 'a new secret 1',
          password_confirmation: 'a new secret 2',
        },
        'match Password',
      ],
    ] as const) {
      const refused = await change(fields).expect(422);
      expect(refused.text).toContain(problem);
    }
    await agent.get('/').expect(302).expect('Location', NEW_PASSWORD_PATH);

    await change({
      current_password: generated,
      password: 'a new secret 1',
      password_confirmation: 'a new secret 1',
    })
      .expect(303)
      .expect('Location', '/users/sign_in?notice=password-changed');
    // Signed out everywhere: sign in again with the new password.
    await agent.get('/').expect(302).expect('Location', '/users/sign_in');
    expect((await signIn(gw, 'root', generated)).res.status).toBe(401);
    const again = await signIn(gw, 'root', 'a new secret 1');
    expect(again.res.status).toBe(303);
    await again.agent.get('/').expect(200);
    await again.agent
      .get(NEW_PASSWORD_PATH)
      .expect(302)
      .expect('Location', '/');
  });

  it('does not ask a user whose password someone chose', async () => {
    const user = await createUser(gw);
    const { agent, res } = await signIn(
      gw,
      user.username,
      'correct horse battery',
    );
    expect(res.status).toBe(303);
    await agent.get('/').expect(200);
  });
});
