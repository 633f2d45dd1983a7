import { User } from 'kinvey-js-sdk';
import request from 'supertest';

import { runCli } from '../support/gateway-process';
import { startTestGateway } from '../support/test-gateway';
import type { TestGateway } from '../support/test-gateway';
import { initKinveySdk } from './kinvey-js-sdk-platform';
import { basic } from './marketplace-support';

/**
 * What Kinvey does that apps and Kinvey's own SDK test suites rely on when
 * they move in, through kinvey-js-sdk 7.0.0 where it has a call for it and
 * through HTTP as Kinvey's test utilities send it otherwise. The app is one
 * an operator made with the CLI, without options.
 */
describe('Kinvey behaviours an app moving in relies on (e2e)', () => {
  let gw: TestGateway;
  let app: { appKey: string; appSecret: string; masterSecret: string };

  beforeAll(async () => {
    gw = await startTestGateway();
    const created = await runCli(
      ['marketplace:apps:create', '--name', 'Feira'],
      {
        DATABASE_URL: gw.databaseUrl,
        DATA_DIR: gw.dataDir,
      },
    );
    expect(created.stderr).toBe('');
    app = JSON.parse(created.stdout);
    initKinveySdk(gw.url, app);
  }, 120_000);

  afterAll(async () => {
    await gw?.close();
  });

  const http = () => request(gw.url);
  const master = () => basic(app.appKey, app.masterSecret);

  async function loginAs(username: string, password: string) {
    if (await User.getActiveUser()) await User.logout();
    return User.login(username, password);
  }

  it('signs up a username without a password (null or none): a generated one, shown once, logs in', async () => {
    const nullPassword = await User.signup({
      username: 'carla',
      password: null,
      email: 'carla@feira.test',
    });
    const generated = nullPassword.data as { password?: unknown };
    expect(generated.password).toEqual(expect.any(String));
    const noPassword = await User.signup({ username: 'dora' });
    const other = (noPassword.data as { password?: unknown }).password;
    expect(other).toEqual(expect.any(String));
    expect(other).not.toBe(generated.password);

    await expect(
      loginAs('carla', generated.password as string),
    ).resolves.toMatchObject({ _id: nullPassword._id });
    await expect(loginAs('dora', other as string)).resolves.toMatchObject({
      _id: noPassword._id,
    });
    // Shown once: no later read carries it.
    const read = await http()
      .get(`/user/${app.appKey}/${nullPassword._id}`)
      .set('Authorization', master())
      .expect(200);
    expect(read.body.password).toBeUndefined();
    await User.logout();
  });
});
