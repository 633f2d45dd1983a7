import { Client } from 'pg';
import request from 'supertest';

import { runCli } from '../support/gateway-process';
import { basic } from './marketplace-support';
import {
  OPERATOR_EMAIL,
  OPERATOR_PASSWORD,
  asOps,
  createOperator,
  kinveyOnTerminal,
  startWithOperatorProfile,
} from './kinvey-cli-support';
import type { KinveyCli } from './kinvey-cli-support';
import type { TestGateway } from '../support/test-gateway';

interface Env {
  id: string;
  name: string;
  app: string;
  appSecret: string;
  masterSecret: string;
}
interface App {
  id: string;
  name: string;
  organizationId: string;
  environments: Env[];
}

const UUID_V4 =
  /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * kinvey-cli 6.1.3, its real executable, against the management API at
 * `<gateway>/manage/`: profiles of an operator account, organizations,
 * applications, environments and collections.
 */
// Each kinvey-cli command is a Node process of its own (about a second),
// and the operator commands compile the CLI from sources: a test runs
// several, well past the default 30 s on a loaded machine.
jest.setTimeout(180_000);

describe('kinvey-cli 6.1.3 (e2e)', () => {
  let gw: TestGateway;
  let cli: KinveyCli;

  beforeAll(async () => {
    ({ gw, cli } = await startWithOperatorProfile({
      MARKETPLACE_LOGIN_MAX_FAILURES: '3',
    }));
  }, 120_000);

  afterAll(async () => {
    await cli?.close();
    await gw?.close();
  });

  it('creates a profile with an operator account; the password is stored as an argon2id hash and the session token as a digest', async () => {
    const shown = await cli.json<{ result: Record<string, unknown> }>(
      asOps('profile', 'show', 'ops'),
    );
    expect(shown.result).toMatchObject({
      email: OPERATOR_EMAIL,
      host: cli.instanceUrl,
    });
    const token = shown.result['token'] as string;
    const db = new Client({ connectionString: gw.databaseUrl });
    await db.connect();
    try {
      const operators = await db.query<{ password_hash: string }>(
        'SELECT password_hash FROM marketplace.operators',
      );
      expect(operators.rows).toHaveLength(1);
      expect(operators.rows[0]?.password_hash).toMatch(/^\$argon2id\$/);
      const sessions = await db.query<{ digest: string }>(
        'SELECT digest FROM marketplace.operator_sessions',
      );
      expect(sessions.rows.map((row) => row.digest)).not.toContain(token);
      expect(sessions.rows.length).toBeGreaterThan(0);
    } finally {
      await db.end();
    }
  });

  it('creates a profile with `init`, answering its prompts at a terminal', async () => {
    const init = kinveyOnTerminal(cli, ['init']);
    await init.answer(/Profile name/, 'typed');
    await init.answer(/Instance ID/, cli.instanceUrl);
    await init.answer(/E-mail/, OPERATOR_EMAIL);
    await init.answer(/Password/, OPERATOR_PASSWORD);
    expect(await init.exited).toBe(0);
    const orgs = await cli.json<{ result: { name: string }[] }>([
      'org',
      'list',
      '--profile',
      'typed',
    ]);
    expect(orgs.result.map((org) => org.name)).toEqual(['Quitanda']);
  });

  it('lists the one organization', async () => {
    const orgs = await cli.json<{
      result: Array<{ id: string; name: string }>;
    }>(asOps('org', 'list'));
    expect(orgs.result).toHaveLength(1);
    expect(orgs.result[0]?.id).toMatch(UUID_V4);
    const shown = await cli.json<{ result: { id: string } }>(
      asOps('org', 'show', '--org', orgs.result[0]?.name ?? ''),
    );
    expect(shown.result.id).toBe(orgs.result[0]?.id);
  });

  it('creates, lists, shows and deletes an application with environments; an environment is an app of the data API at the baas twin of the URL', async () => {
    const created = await cli.json<{ result: { id: string } }>(
      asOps('app', 'create', 'Shop', '--org', 'Quitanda'),
    );
    const appId = created.result.id;
    expect(appId).toMatch(UUID_V4);
    const listed = await cli.json<{ result: App[] }>(asOps('app', 'list'));
    expect(listed.result.map((app) => app.name)).toContain('Shop');

    const env = await cli.json<{ result: { id: string } }>(
      asOps('appenv', 'create', 'Production', '--app', 'Shop'),
    );
    expect(env.result.id).toMatch(/^kid_/);
    const envs = await cli.json<{ result: Env[] }>(
      asOps('appenv', 'list', '--app', appId),
    );
    // Kinvey makes an application with a Development environment.
    expect(envs.result.map((e) => e.name)).toEqual([
      'Development',
      'Production',
    ]);
    const shownEnv = await cli.json<{ result: Env }>(
      asOps('appenv', 'show', '--app', 'Shop', '--env', 'Production'),
    );
    expect(shownEnv.result).toMatchObject({
      id: env.result.id,
      name: 'Production',
      app: appId,
    });
    const shownApp = await cli.json<{ result: App }>(
      asOps('app', 'show', '--app', appId),
    );
    expect(shownApp.result.environments.map((e) => e.id)).toContain(
      env.result.id,
    );

    // The environment's own secrets open the data API, under /baas/ too.
    const { id, appSecret, masterSecret } = shownEnv.result;
    await request(gw.url)
      .post(`/baas/appdata/${id}/orders`)
      .set('Authorization', basic(id, masterSecret))
      .send({ total: 3 })
      .expect(404); // Undeclared: the operator declares collections.
    await request(gw.url)
      .get(`/baas/roles/${id}`)
      .set('Authorization', basic(id, masterSecret))
      .expect(200, []);
    await request(gw.url)
      .get(`/appdata/${id}`)
      .set('Authorization', basic(id, appSecret))
      .expect(200);

    const deletedEnv = await cli.run(
      asOps('appenv', 'delete', '--app', 'Shop', '--env', id, '--no-prompt'),
    );
    expect(deletedEnv.code).toBe(0);
    await request(gw.url)
      .get(`/appdata/${id}`)
      .set('Authorization', basic(id, appSecret))
      .expect(404);

    const deleted = await cli.run(
      asOps('app', 'delete', '--app', appId, '--no-prompt'),
    );
    expect(deleted.code).toBe(0);
    const after = await cli.json<{ result: App[] }>(asOps('app', 'list'));
    expect(after.result.map((app) => app.id)).not.toContain(appId);
  });

  it('creates, lists and deletes collections of an environment; the data API then serves them', async () => {
    const app = await cli.json<{ result: { id: string } }>(
      asOps('app', 'create', 'Catalog', '--org', 'Quitanda'),
    );
    const env = await cli.json<{ result: { id: string } }>(
      asOps('appenv', 'create', 'Staging', '--app', app.result.id),
    );
    const envArgs = ['--app', app.result.id, '--env', env.result.id];
    await cli.json(asOps('coll', 'create', 'products', ...envArgs));
    await cli.json(asOps('coll', 'create', 'stock', ...envArgs));
    const listed = await cli.json<{ result: Array<{ name: string }> }>(
      asOps('coll', 'list', ...envArgs),
    );
    expect(listed.result.map((c) => c.name).sort()).toEqual([
      'products',
      'stock',
    ]);

    const shown = await cli.json<{ result: Env }>(
      asOps('appenv', 'show', ...envArgs),
    );
    const master = basic(shown.result.id, shown.result.masterSecret);
    await request(gw.url)
      .post(`/baas/appdata/${shown.result.id}/products`)
      .set('Authorization', master)
      .send({ name: 'kale' })
      .expect(201);

    const deleted = await cli.run(
      asOps('coll', 'delete', 'stock', ...envArgs, '--no-prompt'),
    );
    expect(deleted.code).toBe(0);
    const after = await cli.json<{ result: Array<{ name: string }> }>(
      asOps('coll', 'list', ...envArgs),
    );
    expect(after.result.map((c) => c.name)).toEqual(['products']);
  });

  it("answers what it does not serve, and bad input, in Kinvey's management error shape, changing nothing", async () => {
    const http = request(gw.url);
    await http
      .get('/manage/v4/apps')
      .expect(401)
      .expect((res) =>
        expect(res.body).toMatchObject({ code: 'InvalidCredentials' }),
      );
    const login = await http
      .post('/manage/session')
      .send({ email: OPERATOR_EMAIL, password: OPERATOR_PASSWORD })
      .expect(200);
    const auth = `Kinvey ${login.body.token as string}`;
    const before = await http
      .get('/manage/v4/apps')
      .set('Authorization', auth)
      .expect(200);
    await http
      .post('/manage/v4/apps')
      .set('Authorization', auth)
      .send({ name: '' })
      .expect(400)
      .expect((res) =>
        expect(res.body).toMatchObject({ code: 'IncompleteRequestBody' }),
      );
    await http
      .post('/manage/v4/apps')
      .set('Authorization', auth)
      .send({
        name: 'x',
        organizationId: '00000000-0000-4000-8000-000000000000',
      })
      .expect(404)
      .expect((res) =>
        expect(res.body).toMatchObject({ code: 'OrganizationNotFound' }),
      );
    await http
      .get('/manage/v4/environments/kid_doesNotExist00/collections')
      .set('Authorization', auth)
      .expect(404)
      .expect((res) =>
        expect(res.body).toMatchObject({ code: 'EnvironmentNotFound' }),
      );
    const after = await http
      .get('/manage/v4/apps')
      .set('Authorization', auth)
      .expect(200);
    expect(after.body).toEqual(before.body);
    await http.delete('/manage/session').set('Authorization', auth).expect(204);
    await http.get('/manage/v4/apps').set('Authorization', auth).expect(401);
  });

  it('marketplace:operators:create refuses a taken address (any case), a short password and a password on the command line', async () => {
    const env = { DATABASE_URL: gw.databaseUrl, DATA_DIR: gw.dataDir };
    const create = (args: string[], input: string) =>
      runCli(['marketplace:operators:create', ...args], env, input);
    const taken = await create(
      ['--email', OPERATOR_EMAIL.toUpperCase()],
      'another password 123\n',
    );
    expect(taken.code).not.toBe(0);
    expect(taken.stderr).toContain('already exists');
    const short = await create(['--email', 'new@example.com'], 'short\n');
    expect(short.code).not.toBe(0);
    expect(short.stderr).toContain('8 to 256 characters');
    const argument = await create(
      ['--email', 'new@example.com', 'a password on the command line'],
      '',
    );
    expect(argument.code).not.toBe(0);
    const login = await request(gw.url)
      .post('/manage/session')
      .send({ email: 'new@example.com', password: 'short' });
    expect(login.status).toBe(401);
  });

  it("marketplace:operators:set-password and :delete end the operator's sessions (kinvey-cli is told to log in again)", async () => {
    const env = { DATABASE_URL: gw.databaseUrl, DATA_DIR: gw.dataDir };
    await createOperator(gw, 'leaving@example.com', 'first password 123');
    const profile = (name: string, password: string) =>
      cli.run([
        'profile',
        'create',
        name,
        '--email',
        'leaving@example.com',
        '--password',
        password,
        '--instanceId',
        cli.instanceUrl,
      ]);
    expect((await profile('leaving', 'first password 123')).code).toBe(0);
    const changed = await runCli(
      ['marketplace:operators:set-password', '--email', 'leaving@example.com'],
      env,
      'second password 123\n',
    );
    expect(changed.code).toBe(0);
    const stale = await cli.run(['org', 'list', '--profile', 'leaving']);
    expect(stale.code).not.toBe(0);
    expect(stale.stderr).toContain('profile login');

    expect((await profile('leaving', 'second password 123')).code).toBe(0);
    const deleted = await runCli(
      ['marketplace:operators:delete', '--email', 'leaving@example.com'],
      env,
    );
    expect(deleted.code).toBe(0);
    const gone = await cli.run(['org', 'list', '--profile', 'leaving']);
    expect(gone.code).not.toBe(0);
    expect((await profile('again', 'second password 123')).code).not.toBe(0);
  });

  it('refuses a wrong password, then locks the address like other logins', async () => {
    const wrong = await cli.run([
      'profile',
      'create',
      'intruder',
      '--email',
      'nobody@example.com',
      '--password',
      'not the password',
      '--instanceId',
      cli.instanceUrl,
    ]);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr + wrong.stdout).toContain('InvalidCredentials');
    const http = request(gw.url);
    for (let i = 0; i < 2; i++)
      await http
        .post('/manage/session')
        .send({ email: 'nobody@example.com', password: 'still wrong' })
        .expect(401);
    await http
      .post('/manage/session')
      .send({ email: 'nobody@example.com', password: 'still wrong' })
      .expect(429)
      .expect((res) =>
        expect(res.body).toMatchObject({ code: 'TooManyRequests' }),
      );
  });
});
