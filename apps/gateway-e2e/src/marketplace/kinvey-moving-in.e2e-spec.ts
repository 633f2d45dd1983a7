import { SmtpSink, freePort } from '@quitanda/testing';
import type { ReceivedMail } from '@quitanda/testing';
import {
  CustomEndpoint,
  DataStore,
  DataStoreType,
  Errors,
  Files,
  User,
} from 'kinvey-js-sdk';
import { Client } from 'pg';
import request from 'supertest';

import { runCli } from '../support/gateway-process';
import { startTestGateway } from '../support/test-gateway';
import type { TestGateway } from '../support/test-gateway';
import { initKinveySdk } from './kinvey-js-sdk-platform';
import type { SentRequest } from './kinvey-js-sdk-platform';
import {
  basic,
  kinveyError,
  mailedLink,
  submitMailedLink,
} from './marketplace-support';

/**
 * What Kinvey does that apps and Kinvey's own SDK test suites rely on when
 * they move in, through kinvey-js-sdk 7.0.0 where it has a call for it and
 * through HTTP as Kinvey's test utilities send it otherwise. The app is one
 * an operator made with the CLI, without options.
 */
describe('Kinvey behaviours an app moving in relies on (e2e)', () => {
  let gw: TestGateway;
  let smtp: SmtpSink;
  let app: { appKey: string; appSecret: string; masterSecret: string };
  let sent: SentRequest[];
  /** Another app, with the produce definition: what one app does never reaches it. */
  let horta: typeof app;

  beforeAll(async () => {
    smtp = await SmtpSink.start();
    gw = await startTestGateway({
      SMTP_URL: smtp.url,
      ALERTS_FROM: 'Feira <accounts@feira.test>',
    });
    const createApp = async (...options: string[]) => {
      const created = await runCli(['marketplace:apps:create', ...options], {
        DATABASE_URL: gw.databaseUrl,
        DATA_DIR: gw.dataDir,
      });
      expect(created.stderr).toBe('');
      return JSON.parse(created.stdout) as typeof app;
    };
    app = await createApp('--name', 'Feira');
    horta = await createApp('--name', 'Horta', '--definition', 'produce');
    ({ sent } = initKinveySdk(gw.url, app));
  }, 120_000);

  afterAll(async () => {
    await gw?.close();
    await smtp?.close();
  });

  const http = () => request(gw.url);
  const master = () => basic(app.appKey, app.masterSecret);

  /** What the SDK sent from now on. */
  const watch = () => {
    const from = sent.length;
    return () => sent.slice(from);
  };
  /** Declares a collection through the operator's REST API. */
  const declare = (name: string, settings: object) =>
    http()
      .post(`/admin/${app.appKey}/collections`)
      .set('Authorization', master())
      .send({ name, settings })
      .expect(201);
  /** Kinvey's test utilities' clean-up call, as they send it. */
  const removeCollection = (collectionName: string) =>
    http()
      .post(`/rpc/${app.appKey}/remove-collection`)
      .set('Authorization', master())
      .set('X-Kinvey-Delete-Entire-Collection', 'true')
      .set('X-Kinvey-Retain-collection-Metadata', 'true')
      .send({ collectionName });
  /** Rows the app still has in a table of the marketplace schema. */
  async function rowsOf(table: string): Promise<number> {
    const db = new Client({ connectionString: gw.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM marketplace.${table} WHERE app_key = $1`,
        [app.appKey],
      );
      return rows[0]?.n ?? 0;
    } finally {
      await db.end();
    }
  }

  async function loginAs(username: string, password: string) {
    if (await User.getActiveUser()) await User.logout();
    return User.login(username, password);
  }

  it('makes an app without --definition with no collections; the produce definition comes on request', async () => {
    const none = await http()
      .get(`/admin/${app.appKey}/collections`)
      .set('Authorization', master())
      .expect(200);
    expect(none.body).toEqual([]);
    const missing = await http()
      .get(`/appdata/${app.appKey}/product`)
      .set('Authorization', master())
      .expect(404);
    expect(missing.body).toEqual(kinveyError('CollectionNotFound'));
    // Made with --definition produce (beforeAll).
    const produce = await http()
      .get(`/admin/${horta.appKey}/collections`)
      .set('Authorization', basic(horta.appKey, horta.masterSecret))
      .expect(200);
    expect(produce.body.map((c: { name: string }) => c.name).sort()).toEqual([
      'assortment',
      'availableAssortment',
      'product',
      'requiredAssortment',
    ]);
  });

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

  it('empties the user collection on remove-collection: every user and session, none of the app credentials', async () => {
    const eva = await User.signup({
      username: 'eva',
      password: 'eva password',
    });
    await loginAs('eva', 'eva password');
    const session = `Kinvey ${(await User.getActiveUser())?.authtoken as string}`;
    const before = await http()
      .get(`/user/${app.appKey}`)
      .set('Authorization', master())
      .expect(200);
    expect(before.body.length).toBeGreaterThan(0);
    const neighbour = () =>
      http()
        .post(`/user/${horta.appKey}/login`)
        .auth(horta.appKey, horta.appSecret)
        .send({ username: 'eva', password: 'eva of the other app' });
    await http()
      .post(`/user/${horta.appKey}`)
      .auth(horta.appKey, horta.appSecret)
      .send({ username: 'eva', password: 'eva of the other app' })
      .expect(201);

    const removed = await removeCollection('user').expect(200);
    expect(removed.body).toEqual({ count: before.body.length });

    await http()
      .get(`/user/${app.appKey}/_me`)
      .set('Authorization', session)
      .expect(401);
    await expect(User.logout()).resolves.toBeDefined();
    await expect(loginAs('eva', 'eva password')).rejects.toBeInstanceOf(
      Errors.InvalidCredentialsError,
    );
    await expect(
      http().get(`/user/${app.appKey}`).set('Authorization', master()),
    ).resolves.toMatchObject({ status: 200, body: [] });
    await expect(rowsOf('user_tokens')).resolves.toBe(0);
    await neighbour().expect(200);
    // The app's own credentials stay: app and master secrets still work.
    await http()
      .get(`/appdata/${app.appKey}`)
      .auth(app.appKey, app.appSecret)
      .expect(200);
    await http()
      .get(`/appdata/${app.appKey}`)
      .set('Authorization', master())
      .expect(200);
    // The username is free again, for a new user.
    const again = await User.signup({
      username: 'eva',
      password: 'new eva password',
    });
    expect(again._id).not.toBe(eva._id);
    await expect(removeCollection('user').expect(200)).resolves.toMatchObject({
      body: { count: 1 },
    });
  });

  it('empties the files collection on remove-collection: every file with its bytes', async () => {
    await User.signup({ username: 'fabio', password: 'fabio password' });
    await loginAs('fabio', 'fabio password');
    const kept = await Files.upload('some bytes', {
      filename: 'a.txt',
      mimeType: 'text/plain',
      public: true,
    });
    await Files.upload('more bytes', {
      filename: 'b.txt',
      mimeType: 'text/plain',
    });
    const url = new URL(
      (
        await http()
          .get(`/blob/${app.appKey}/${kept._id}`)
          .set('Authorization', master())
          .expect(200)
      ).body._downloadURL,
    );
    await http().get(`${url.pathname}${url.search}`).expect(200);
    const hortaMaster = basic(horta.appKey, horta.masterSecret);
    const neighbour = await http()
      .post(`/blob/${horta.appKey}`)
      .set('Authorization', hortaMaster)
      .send({ _filename: 'c.txt', mimeType: 'text/plain', size: 5 })
      .expect(201);
    const upload = new URL(neighbour.body._uploadURL);
    await http()
      .put(`${upload.pathname}${upload.search}`)
      .set('Content-Type', 'text/plain')
      .send(Buffer.from('kept!'))
      .expect(201);

    const removed = await removeCollection('_blob').expect(200);
    expect(removed.body).toEqual({ count: 2 });

    await expect(Files.find()).resolves.toEqual([]);
    await http().get(`${url.pathname}${url.search}`).expect(404);
    await expect(rowsOf('file_chunks')).resolves.toBe(0);
    const stillThere = await http()
      .get(`/blob/${horta.appKey}/${neighbour.body._id}`)
      .set('Authorization', hortaMaster)
      .expect(200);
    const keptUrl = new URL(stillThere.body._downloadURL);
    const bytes = await http()
      .get(`${keptUrl.pathname}${keptUrl.search}`)
      .expect(200);
    expect(bytes.text).toBe('kept!');
    const gone = await http()
      .get(`/blob/${app.appKey}/${kept._id}`)
      .set('Authorization', master())
      .expect(404);
    expect(gone.body).toEqual(kinveyError('BlobNotFound'));
    // Only master empties system collections.
    await http()
      .post(`/rpc/${app.appKey}/remove-collection`)
      .auth(app.appKey, app.appSecret)
      .send({ collectionName: '_blob' })
      .expect(401);
    await User.logout();
  });

  it('keeps delta sets off unless the collection turns them on: the SDK falls back to a full pull', async () => {
    await declare('crates', {});
    await declare('boxes', { deltaSet: true });
    await User.signup({ username: 'gil', password: 'gil password' });
    await loginAs('gil', 'gil password');
    const since = encodeURIComponent(new Date(0).toISOString());
    const off = await http()
      .get(`/appdata/${app.appKey}/crates/_deltaset?since=${since}`)
      .set('Authorization', master())
      .expect(403);
    expect(off.body).toEqual(kinveyError('MissingConfiguration'));
    await http()
      .get(`/appdata/${app.appKey}/boxes/_deltaset?since=${since}`)
      .set('Authorization', master())
      .expect(200);

    const network = DataStore.collection('crates', DataStoreType.Network);
    await network.save({ fruit: 'caju' });
    const local = DataStore.collection('crates', DataStoreType.Sync, {
      useDeltaSet: true,
    });
    await expect(local.pull()).resolves.toBe(1);
    await network.save({ fruit: 'manga' });
    const requests = watch();
    await expect(local.pull()).resolves.toBe(2);
    expect(requests()).toEqual([
      {
        method: 'GET',
        path: expect.stringMatching(/^\/appdata\/kid_\w+\/crates\/_deltaset\?/),
      },
      {
        method: 'GET',
        path: expect.stringMatching(/^\/appdata\/kid_\w+\/crates(\?|$)/),
      },
    ]);
    await User.logout();
  });

  it("answers an unknown custom endpoint with Kinvey's own text, which apps show", async () => {
    await User.signup({ username: 'ines', password: 'ines password' });
    await loginAs('ines', 'ines password');
    const failed = CustomEndpoint.execute('nothing-here', {});
    await expect(failed).rejects.toBeInstanceOf(Errors.NotFoundError);
    await expect(failed).rejects.toMatchObject({
      message:
        'The custom endpoint you tried to access does not exist. Please configure custom Business Logic endpoints through the Kinvey Console.',
    });
    await User.logout();
  });

  it('hands out http download URLs when a file read says tls=false, https ones otherwise', async () => {
    // Behind TLS, as deployments are: each request says it came as https.
    const appKey = 'kid_tlsBehindProxy01';
    const behindTls = await startTestGateway({
      TRUST_PROXY: 'true',
      MARKETPLACE_APP_KEY: appKey,
      MARKETPLACE_APP_SECRET: 'tls-app-secret-0123456789',
      MARKETPLACE_MASTER_SECRET: 'tls-master-secret-0123456789',
    });
    const auth = basic(appKey, 'tls-master-secret-0123456789');
    const call = (method: 'get' | 'post', path: string) =>
      request(behindTls.url)
        [method](`/blob/${appKey}${path}`)
        .set('Authorization', auth)
        .set('X-Forwarded-Proto', 'https');
    const urlOf = async (path: string) => {
      const { body } = await call('get', path).expect(200);
      return (Array.isArray(body) ? body[0] : body)._downloadURL as string;
    };
    try {
      const created = await call('post', '')
        .send({ _filename: 'a.txt', mimeType: 'text/plain', size: 2 })
        .expect(201);
      const one = `/${created.body._id as string}`;
      for (const path of [one, `${one}?tls=true`, '?tls=true'])
        await expect(urlOf(path)).resolves.toMatch(/^https:\/\//);
      for (const path of [`${one}?tls=false`, '?tls=false'])
        await expect(urlOf(path)).resolves.toMatch(/^http:\/\//);
    } finally {
      await behindTls.close();
    }
  });
});

/**
 * Account mail is built on `PUBLIC_BASE_URL` alone (never on a request's
 * Host), so this gateway is told where it listens.
 */
describe('Kinvey e-mail verification state (e2e)', () => {
  let gw: TestGateway;
  let smtp: SmtpSink;
  let app: { appKey: string; appSecret: string; masterSecret: string };

  beforeAll(async () => {
    smtp = await SmtpSink.start();
    const port = await freePort();
    gw = await startTestGateway({
      SMTP_URL: smtp.url,
      ALERTS_FROM: 'Feira <accounts@feira.test>',
      PORT: String(port),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    });
    const created = await runCli(
      ['marketplace:apps:create', '--name', 'Feira'],
      { DATABASE_URL: gw.databaseUrl, DATA_DIR: gw.dataDir },
    );
    expect(created.stderr).toBe('');
    app = JSON.parse(created.stdout) as typeof app;
    initKinveySdk(gw.url, app);
  }, 120_000);

  afterAll(async () => {
    await gw?.close();
    await smtp?.close();
  });

  const http = () => request(gw.url);

  async function loginAs(username: string, password: string) {
    if (await User.getActiveUser()) await User.logout();
    return User.login(username, password);
  }

  it('records the e-mail verification in _kmd.emailVerification: sent when mailed, confirmed through the link', async () => {
    await User.signup({
      username: 'hana',
      password: 'hana password',
      email: 'hana@feira.test',
    });
    await loginAs('hana', 'hana password');
    const before = smtp.messages.length;
    await User.verifyEmail('hana');
    const mail = (await smtp.waitFor(before + 1))[before] as ReceivedMail;
    const sentState = (await User.me()).metadata.emailVerification;
    expect(sentState).toEqual({
      status: 'sent',
      lastStateChangeAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      emailAddress: 'hana@feira.test',
    });
    expect((await User.me()).isEmailVerified()).toBe(false);

    await submitMailedLink(http(), mailedLink(mail)).expect(200);
    const me = await User.me();
    expect(me.isEmailVerified()).toBe(true);
    expect(me.metadata.emailVerification).toEqual({
      status: 'confirmed',
      lastStateChangeAt: expect.any(String),
      lastConfirmedAt: expect.any(String),
      emailAddress: 'hana@feira.test',
    });
    // Every read of the user carries it, the login's included.
    await User.logout();
    const login = await http()
      .post(`/user/${app.appKey}/login`)
      .auth(app.appKey, app.appSecret)
      .send({ username: 'hana', password: 'hana password' })
      .expect(200);
    expect(login.body._kmd.emailVerification).toMatchObject({
      status: 'confirmed',
    });
  });
});
