import type { ChildProcess } from 'node:child_process';

import { SmtpSink, freePort } from '@quitanda/testing';
import {
  CustomEndpoint,
  DataStore,
  DataStoreType,
  Errors,
  Query,
  User,
} from 'kinvey-js-sdk';

import { runCli } from '../support/gateway-process';
import { startFlexService, stopFlexService } from './flex-service-process';
import { initKinveySdk } from './kinvey-js-sdk-platform';
import {
  APP_KEY,
  APP_SECRET,
  MASTER_AUTH,
  startMarketplace,
} from './marketplace-support';
import type { MarketplaceTest } from './marketplace-support';

const FLEX_SECRET = 'flex-shared-secret-0123456789';
const PASSWORD = 'correct horse battery';
const SEALING_KEY = 'e2e-flex-sealing-key-0123456789abcdef';

interface Offer {
  _id?: string;
  name: string;
  price: number;
  checkedBy?: string;
}

/**
 * Business logic on an External Flex service written with kinvey-flex-sdk
 * 3.3.0 (its own process, as deployed), registered by the operator's
 * admin API and driven by kinvey-js-sdk 7.0.0: custom endpoints, a pre-save
 * hook that refuses, a post-fetch hook that adds a field, a FlexData
 * collection, and the service's calls back.
 */
describe('business logic on Flex services (e2e)', () => {
  let m: MarketplaceTest;
  let flex: ChildProcess;
  let flexPort: number;
  let smtp: SmtpSink;

  const admin = (path: string) =>
    m.http
      .put(`/admin/${APP_KEY}/business-logic${path}`)
      .set('Authorization', MASTER_AUTH);

  beforeAll(async () => {
    const port = (flexPort = await freePort());
    flex = await startFlexService(port, FLEX_SECRET);
    smtp = await SmtpSink.start();
    m = await startMarketplace({
      MARKETPLACE_MFA_ENCRYPTION_KEY: SEALING_KEY,
      SMTP_URL: smtp.url,
      ALERTS_FROM: 'Produce <app@produce.test>',
    });
    await m.declare('offers').expect(201);
    await m.declare('farms', { permissions: 'shared' }).expect(201);
    await admin('/services/produce')
      .send({
        url: `http://127.0.0.1:${port}`,
        secret: FLEX_SECRET,
        timeoutMs: 1500,
      })
      .expect(204);
    for (const name of [
      'hello',
      'offerSummary',
      'myOffers',
      'tryAdmin',
      'mailGrower',
      'failing',
      'stuck',
    ])
      await admin(`/endpoints/${name}`)
        .send({ service: 'produce', function: name })
        .expect(204);
    await admin('/hooks/offers/onPreSave')
      .send({ service: 'produce', function: 'checkOffer' })
      .expect(204);
    await admin('/hooks/offers/onPostFetch')
      .send({ service: 'produce', function: 'stampOffers' })
      .expect(204);
    await admin('/data/farms')
      .send({ service: 'produce', serviceObject: 'farms' })
      .expect(204);
    initKinveySdk(m.gw.url, { appKey: APP_KEY, appSecret: APP_SECRET });
    await User.signup({
      username: 'grower',
      password: PASSWORD,
    });
    await User.login('grower', PASSWORD);
  }, 120_000);

  afterAll(async () => {
    await m?.gw.close();
    await smtp?.close();
    await stopFlexService(flex);
  });

  it('shows the registered service, its health, and never its secret', async () => {
    const view = await m.http
      .get(`/admin/${APP_KEY}/business-logic`)
      .set('Authorization', MASTER_AUTH)
      .expect(200);
    expect(view.body.services).toEqual([
      {
        name: 'produce',
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
        timeoutMs: 1500,
      },
    ]);
    expect(view.body.hooks.offers).toEqual({
      onPreSave: { service: 'produce', handler: 'checkOffer' },
      onPostFetch: { service: 'produce', handler: 'stampOffers' },
    });
    expect(JSON.stringify(view.body)).not.toContain(FLEX_SECRET);
    const health = await m.http
      .get(`/admin/${APP_KEY}/business-logic/services/produce/health`)
      .set('Authorization', MASTER_AUTH)
      .expect(200);
    expect(health.body).toMatchObject({
      healthy: true,
      ms: expect.any(Number),
    });
  });

  it('runs a custom endpoint on the service and answers with what its function returns', async () => {
    const user = await User.getActiveUser();
    await expect(
      CustomEndpoint.execute('hello', { name: 'Ana' }),
    ).resolves.toEqual({
      greeting: 'hello Ana',
      username: 'grower',
      userId: user?._id,
    });
  });

  it("answers a function's runtime error and a service that takes too long with Kinvey's BL errors (550)", async () => {
    await expect(CustomEndpoint.execute('failing', {})).rejects.toMatchObject({
      name: 'BLError',
      debug: expect.stringContaining('the failing endpoint failed'),
    });
    const stuck = await m.http
      .post(`/rpc/${APP_KEY}/custom/stuck`)
      .set('Authorization', MASTER_AUTH)
      .send({})
      .expect(550);
    expect(stuck.body).toMatchObject({ error: 'BLTimeoutError' });
    await expect(
      CustomEndpoint.execute('nothing-here', {}),
    ).rejects.toBeInstanceOf(Errors.NotFoundError);
  });

  it('refuses a save its pre-save hook rejects (nothing stored) and stores what the hook made of the others', async () => {
    const offers = DataStore.collection('offers', DataStoreType.Network);
    await expect(
      offers.save({ name: 'kale', price: -1 }),
    ).rejects.toBeInstanceOf(Errors.BadRequestError);
    const saved: Offer = await offers.save({ name: '  kale  ', price: 3 });
    expect(saved).toMatchObject({ name: 'kale', price: 3 });
    const stored = await m.http
      .get(`/appdata/${APP_KEY}/offers`)
      .query({ query: JSON.stringify({ name: 'kale' }) })
      .set('Authorization', MASTER_AUTH)
      .set('X-Kinvey-Skip-Business-Logic', 'true')
      .expect(200);
    expect(stored.body.map((o: Offer) => [o.name, o.price])).toEqual([
      ['kale', 3],
    ]);
    expect(stored.body[0]).not.toHaveProperty('checkedBy');
  });

  it("adds the post-fetch hook's field to what the SDK finds, lists and gets", async () => {
    const offers = DataStore.collection('offers', DataStoreType.Network);
    const saved: Offer = await offers.save({ name: 'chard', price: 2 });
    const found: Offer[] = await offers
      .find(new Query().equalTo('name', 'chard'))
      .toPromise();
    expect(found).toEqual([
      expect.objectContaining({ name: 'chard', checkedBy: 'flex' }),
    ]);
    await expect(
      offers.findById(saved._id as string).toPromise(),
    ).resolves.toMatchObject({
      name: 'chard',
      checkedBy: 'flex',
    });
  });

  it('lets the service call back with the secrets it was handed, and as the calling user, without running hooks again', async () => {
    await DataStore.collection('offers', DataStoreType.Network).save({
      name: 'leek',
      price: 4,
    });
    const summary = (await CustomEndpoint.execute('offerSummary', {})) as {
      offers: number;
      stamped: number;
      caller: string;
      users: number;
    };
    // Every offer, none stamped by the post-fetch hook: its own calls run none.
    expect(summary.offers).toBeGreaterThanOrEqual(1);
    expect(summary.stamped).toBe(0);
    expect(summary.caller).toBe('grower');
    expect(summary.users).toBe(1);
    const mine = (await CustomEndpoint.execute('myOffers', {})) as {
      mine: number;
    };
    expect(mine.mine).toBe(summary.offers);
  });

  it("refuses the app's administration to the secret the service was handed", async () => {
    await expect(
      CustomEndpoint.execute('tryAdmin', { baasUrl: m.gw.url }),
    ).resolves.toEqual({
      status: 401,
      body: expect.objectContaining({ error: 'InsufficientCredentials' }),
    });
  });

  it("queues the service's e-mail in the app's outbox, from the app's own sender", async () => {
    const before = smtp.messages.length;
    await expect(
      CustomEndpoint.execute('mailGrower', { to: 'grower@farm.test' }),
    ).resolves.toEqual({ response: 'queued' });
    const mail = (await smtp.waitFor(before + 1))[before];
    expect(mail?.to).toEqual(['grower@farm.test']);
    expect(mail?.from).toBe('app@produce.test');
    expect(mail?.raw).toContain('Subject: Your offer');
    expect(mail?.raw).toContain('It was saved.');
    // Users have no business sending the app's mail.
    const refused = await m.http
      .post(`/rpc/${APP_KEY}/send-email`)
      .set(
        'Authorization',
        `Kinvey ${(await User.getActiveUser())?.authtoken as string}`,
      )
      .send({ to: 'x@farm.test', subject: 's', body: 'b' })
      .expect(401);
    expect(refused.body).toMatchObject({ error: 'InsufficientCredentials' });
  });

  it('serves a FlexData collection from the service: create, list, query, get, count, update, delete', async () => {
    const farms = DataStore.collection('farms', DataStoreType.Network);
    const north: { _id: string; state: string } = await farms.save({
      name: 'North',
      state: 'SP',
    });
    expect(north._id).toMatch(/^farm-\d+$/);
    await farms.save({ name: 'South', state: 'RS' });
    const all: unknown[] = await farms.find().toPromise();
    expect(all).toHaveLength(2);
    await expect(
      farms.find(new Query().equalTo('state', 'SP')).toPromise(),
    ).resolves.toEqual([expect.objectContaining({ name: 'North' })]);
    await expect(farms.findById(north._id).toPromise()).resolves.toMatchObject({
      name: 'North',
    });
    await expect(farms.count().toPromise()).resolves.toBe(2);
    await expect(
      farms.save({ ...north, name: 'Far North' }),
    ).resolves.toMatchObject({
      _id: north._id,
      name: 'Far North',
    });
    await expect(farms.removeById(north._id)).resolves.toMatchObject({
      count: 1,
    });
    await expect(farms.count().toPromise()).resolves.toBe(1);
    // What the service cannot answer is refused, not read from Quitanda's store.
    const grouped = await m.http
      .post(`/appdata/${APP_KEY}/farms/_group`)
      .set('Authorization', MASTER_AUTH)
      .send({ key: { state: true }, initial: { count: 0 }, reduce: '' })
      .expect(400);
    expect(grouped.body).toMatchObject({ error: 'FeatureUnavailable' });
  });

  it("enforces the FlexData collection's permissions: app credentials may not update it", async () => {
    const res = await m.http
      .put(`/appdata/${APP_KEY}/farms/farm-2`)
      .set(
        'Authorization',
        `Basic ${Buffer.from(`${APP_KEY}:${APP_SECRET}`).toString('base64')}`,
      )
      .send({ name: 'taken over' })
      .expect(401);
    expect(res.body).toMatchObject({ error: 'InsufficientCredentials' });
  });

  it('registers a service, binds and shows it by the CLI, the shared secret read from standard input', async () => {
    const env = {
      DATABASE_URL: m.gw.databaseUrl,
      DATA_DIR: m.gw.dataDir,
      MARKETPLACE_MFA_ENCRYPTION_KEY: SEALING_KEY,
    };
    const set = await runCli(
      [
        'marketplace:flex:set-service',
        '--app',
        APP_KEY,
        'second',
        '--url',
        `http://127.0.0.1:${flexPort}`,
        '--timeout-ms',
        '800',
      ],
      env,
      `${FLEX_SECRET}\n`,
    );
    expect(set).toMatchObject({ code: 0, stderr: '' });
    const bind = await runCli(
      [
        'marketplace:flex:bind',
        '--app',
        APP_KEY,
        '--service',
        'second',
        '--function',
        'hello',
        '--endpoint',
        'greet',
      ],
      env,
    );
    expect(bind).toMatchObject({ code: 0, stderr: '' });
    const shown = await runCli(
      ['marketplace:flex:show', '--app', APP_KEY],
      env,
    );
    expect(shown).toMatchObject({ code: 0, stderr: '' });
    expect(shown.stdout).not.toContain(FLEX_SECRET);
    const view = JSON.parse(shown.stdout);
    expect(view.services).toContainEqual({
      name: 'second',
      url: `http://127.0.0.1:${flexPort}`,
      timeoutMs: 800,
      health: { healthy: true, ms: expect.any(Number) },
    });
    expect(view.endpoints.greet).toEqual({
      service: 'second',
      handler: 'hello',
    });
  }, 120_000);

  it('runs the user collection hooks around signups, updates, reads and deletes of users', async () => {
    const bound = {
      onPreSave: 'checkMember',
      onPostFetch: 'greetMembers',
      onPreDelete: 'keepMembers',
    };
    for (const [hook, handler] of Object.entries(bound))
      await admin(`/hooks/user/${hook}`)
        .send({ service: 'produce', function: handler })
        .expect(204);
    try {
      await User.logout();
      // Signup is the user's create: its pre-save hook refuses, or changes
      // what is stored.
      await expect(
        User.signup({ username: 'spam-bot', password: PASSWORD }),
      ).rejects.toBeInstanceOf(Errors.BadRequestError);
      await m.login('spam-bot', PASSWORD).expect(401);
      const picker = await User.signup({
        username: 'picker',
        password: PASSWORD,
        nickname: ' pick ',
      });
      expect(picker.data).toMatchObject({
        username: 'picker',
        nickname: 'pick',
        checkedBy: 'flex',
      });
      const active = await User.login('picker', PASSWORD);
      await active.update({ nickname: '  picky  ' });
      const session = `Kinvey ${active.authtoken as string}`;
      const got = await m.http
        .get(`/user/${APP_KEY}/${picker._id as string}`)
        .set('Authorization', session)
        .expect(200);
      expect(got.body).toMatchObject({
        nickname: 'picky',
        greeting: 'hello picker',
      });
      const listed = await m.http
        .get(`/user/${APP_KEY}`)
        .query({ query: JSON.stringify({ username: 'picker' }) })
        .set('Authorization', session)
        .expect(200);
      expect(listed.body).toEqual([
        expect.objectContaining({ greeting: 'hello picker' }),
      ]);
      const removal = () =>
        m.http
          .delete(`/user/${APP_KEY}/${picker._id as string}`)
          .query({ hard: 'true' })
          .set('Authorization', MASTER_AUTH);
      await removal().expect(400);
      // The master skipping business logic runs no hook.
      await removal().set('X-Kinvey-Skip-Business-Logic', 'true').expect(204);
    } finally {
      for (const hook of Object.keys(bound))
        await m.http
          .delete(`/admin/${APP_KEY}/business-logic/hooks/user/${hook}`)
          .set('Authorization', MASTER_AUTH)
          .expect(204);
      await User.logout();
      await User.login('grower', PASSWORD);
    }
  });
});
