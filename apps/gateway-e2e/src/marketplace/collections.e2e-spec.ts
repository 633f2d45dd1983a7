import { runCli } from '../support/gateway-process';
import {
  APP_AUTH,
  APP_KEY,
  MASTER_AUTH,
  adminPath,
  basic,
  createAppByCli,
  kinveyError,
  startMarketplace,
} from './marketplace-support';
import type { MarketplaceTest } from './marketplace-support';

/** Collections are data: declared per app by the operator, with their rules. */
describe('marketplace collections (e2e)', () => {
  let t: MarketplaceTest;
  let alice: { id: string; auth: string };
  let bob: { id: string; auth: string };

  beforeAll(async () => {
    t = await startMarketplace();
    alice = await t.signup('alice@example.com');
    bob = await t.signup('bob@example.com');
  });

  afterAll(() => t?.gw.close());

  const admin = adminPath;
  const declare: MarketplaceTest['declare'] = (...args) => t.declare(...args);
  const post: MarketplaceTest['post'] = (...args) => t.post(...args);

  it('answers an undeclared collection with CollectionNotFound until it is declared', async () => {
    const before = await post('notes', alice.auth, { text: 'hi' }).expect(404);
    expect(before.body).toEqual(kinveyError('CollectionNotFound'));
    const created = await declare('notes').expect(201);
    expect(created.body).toEqual({ name: 'notes', settings: {} });
    const note = await post('notes', alice.auth, { text: 'hi' }).expect(201);
    const read = await t.http
      .get(`/appdata/${APP_KEY}/notes/${note.body._id}`)
      .set('Authorization', bob.auth)
      .expect(200);
    expect(read.body.text).toBe('hi');
    const list = await t.http
      .get(admin())
      .set('Authorization', MASTER_AUTH)
      .expect(200);
    expect(list.body.map((c: { name: string }) => c.name)).toEqual(
      expect.arrayContaining(['notes', 'product', 'assortment']),
    );
  });

  it('takes its REST API from master only', async () => {
    for (const auth of [APP_AUTH, alice.auth]) {
      const res = await t.http.get(admin()).set('Authorization', auth);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(kinveyError('InsufficientCredentials'));
    }
  });

  it('refuses bad names and settings with a clear error and changes nothing', async () => {
    for (const [name, settings, debug] of [
      ['_hidden', {}, /name/],
      ['bad name', {}, /name/],
      ['things', { permissions: 'everyone' }, /permissions/],
      ['things', { schema: { type: 'nonsense' } }, /schema/],
      ['things', { unique: [{ field: 'a', fold: ['upper'] }] }, /fold/],
      ['things', { deltaSet: 'yes' }, /deltaSet/],
      ['things', { colour: 'red' }, /colour/],
    ] as const) {
      const res = await declare(name, settings).expect(400);
      expect(res.body).toEqual(kinveyError('BadRequest'));
      expect(res.body.debug).toMatch(debug);
    }
    await t.http
      .get(admin('/things'))
      .set('Authorization', MASTER_AUTH)
      .expect(404);
    await declare('notes').expect(409);
  });

  it('validates records by the JSON Schema, coercing scalars, naming every failing field', async () => {
    await declare('contacts', {
      schema: {
        type: 'object',
        required: ['name', 'age'],
        properties: {
          name: { type: 'string' },
          age: { type: 'string', pattern: '^\\d+$' },
          vip: { type: 'string', enum: ['true', 'false'] },
        },
      },
    }).expect(201);
    const ok = await post('contacts', alice.auth, {
      name: 'Ana',
      age: 30,
      vip: true,
    }).expect(201);
    expect(ok.body).toMatchObject({ name: 'Ana', age: '30', vip: 'true' });
    const missing = await post('contacts', alice.auth, { vip: 'x' }).expect(
      400,
    );
    expect(missing.body).toEqual(kinveyError('IncompleteRequestBody'));
    expect(missing.body.debug).toMatch(/name/);
    expect(missing.body.debug).toMatch(/age/);
    expect(missing.body.debug).toMatch(/vip/);
    const wrong = await post('contacts', alice.auth, {
      name: 'Ana',
      age: 'old',
    }).expect(400);
    expect(wrong.body).toEqual(kinveyError('BadRequest'));
    expect(wrong.body.debug).toMatch(/age/);
  });

  it('keeps unique fields unique (folded) in the database, concurrent writers included', async () => {
    await declare('tags', {
      unique: [{ field: 'label', fold: ['case', 'trim'] }],
    }).expect(201);
    const results = await Promise.all(
      ['Ripe', ' ripe ', 'RIPE', 'ripe'].map((label) =>
        post('tags', alice.auth, { label }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    const conflict = results.find((r) => r.status === 409);
    expect(conflict?.body).toEqual(kinveyError('DuplicateEntity'));
    await post('tags', alice.auth, { label: 'green' }).expect(201);

    // A unique rule existing records already break is refused, nothing changed.
    await declare('words').expect(201);
    await post('words', alice.auth, { w: 'a' }).expect(201);
    await post('words', alice.auth, { w: 'A' }).expect(201);
    const refused = await t.http
      .put(admin('/words'))
      .set('Authorization', MASTER_AUTH)
      .send({ settings: { unique: [{ field: 'w', fold: ['case'] }] } })
      .expect(400);
    expect(refused.body.debug).toMatch(/w/);
    const shown = await t.http
      .get(admin('/words'))
      .set('Authorization', MASTER_AUTH)
      .expect(200);
    expect(shown.body).toEqual({ name: 'words', settings: {} });
    await post('words', alice.auth, { w: 'a' }).expect(201);
  });

  it('keeps each of several unique fields unique, naming the one a write repeats', async () => {
    await declare('members', {
      unique: [
        { field: 'email', fold: ['case', 'trim'] },
        { field: 'card.number' },
      ],
    }).expect(201);
    const results = await Promise.all(
      ['a', 'b', 'c', 'd'].map((x) =>
        post('members', alice.auth, {
          email: `${x}@x`,
          card: { number: '42' },
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    const conflict = results.find((r) => r.status === 409);
    expect(conflict?.body).toEqual(kinveyError('DuplicateEntity'));
    expect(conflict?.body.debug).toBe('card.number');
    const email = await post('members', alice.auth, {
      email: ' A@X ',
      card: { number: '7' },
    }).expect(409);
    expect(email.body.debug).toBe('email');

    // An update to a taken number is refused; a delete frees its values.
    const won = results.find((r) => r.status === 201)?.body;
    const other = await post('members', alice.auth, {
      email: 'e@x',
      card: { number: '7' },
    }).expect(201);
    const taken = await t.http
      .put(`/appdata/${APP_KEY}/members/${other.body._id}`)
      .set('Authorization', alice.auth)
      .send({ email: 'e@x', card: { number: '42' } })
      .expect(409);
    expect(taken.body.debug).toBe('card.number');
    await t.http
      .delete(`/appdata/${APP_KEY}/members/${won._id}`)
      .set('Authorization', alice.auth)
      .expect(200);
    await t.http
      .put(`/appdata/${APP_KEY}/members/${other.body._id}`)
      .set('Authorization', alice.auth)
      .send({ email: 'e@x', card: { number: '42' } })
      .expect(200);
    await post('members', bob.auth, {
      email: won.email,
      card: { number: '7' },
    }).expect(201);
  });

  it('checks references to users and to records of another collection', async () => {
    await declare('lists').expect(201);
    await declare('items', {
      references: [
        { field: 'owner', to: 'user', callerWhenUser: true },
        { field: 'listId', to: 'collection', collection: 'lists' },
      ],
    }).expect(201);
    const list = await post('lists', alice.auth, { title: 'x' }).expect(201);
    await post('items', alice.auth, {
      owner: alice.id,
      listId: list.body._id,
    }).expect(201);
    const notMine = await post('items', alice.auth, { owner: bob.id }).expect(
      400,
    );
    expect(notMine.body.debug).toBe('owner');
    const noList = await post('items', alice.auth, {
      owner: alice.id,
      listId: 'nope',
    }).expect(400);
    expect(noList.body.debug).toBe('listId');
    const noUser = await post('items', MASTER_AUTH, { owner: 'nobody' }).expect(
      400,
    );
    expect(noUser.body).toEqual(kinveyError('BadRequest'));
    await post('items', MASTER_AUTH, { owner: bob.id }).expect(201);
  });

  it("applies Kinvey's permission levels: private, read-only, full", async () => {
    await declare('diary', { permissions: 'private' }).expect(201);
    const entry = await post('diary', alice.auth, {
      text: 'secret',
      _acl: { gr: true },
    }).expect(201);
    await t.http
      .get(`/appdata/${APP_KEY}/diary/${entry.body._id}`)
      .set('Authorization', bob.auth)
      .expect(401);
    const bobs = await t.http
      .get(`/appdata/${APP_KEY}/diary`)
      .set('Authorization', bob.auth)
      .expect(200);
    expect(bobs.body).toEqual([]);
    const alices = await t.http
      .get(`/appdata/${APP_KEY}/diary`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(alices.body).toHaveLength(1);

    await declare('news', { permissions: 'read-only' }).expect(201);
    const denied = await post('news', alice.auth, { title: 'x' }).expect(401);
    expect(denied.body).toEqual(kinveyError('InsufficientCredentials'));
    const news = await post('news', MASTER_AUTH, { title: 'x' }).expect(201);
    await t.http
      .get(`/appdata/${APP_KEY}/news/${news.body._id}`)
      .set('Authorization', alice.auth)
      .expect(200);

    await declare('board', { permissions: 'full' }).expect(201);
    const note = await post('board', alice.auth, {
      text: 'a',
      _acl: { gr: false },
    }).expect(201);
    const edited = await t.http
      .put(`/appdata/${APP_KEY}/board/${note.body._id}`)
      .set('Authorization', bob.auth)
      .send({ text: 'b' })
      .expect(200);
    expect(edited.body.text).toBe('b');
  });

  it('answers the delta set of a collection without it (the default) as Kinvey does (MissingConfiguration)', async () => {
    await declare('events').expect(201);
    await declare('feed', { deltaSet: true }).expect(201);
    const res = await t.http
      .get(`/appdata/${APP_KEY}/events/_deltaset`)
      .query({ since: new Date(0).toISOString() })
      .set('Authorization', alice.auth)
      .expect(403);
    expect(res.body).toEqual(kinveyError('MissingConfiguration'));
    await t.http
      .get(`/appdata/${APP_KEY}/feed/_deltaset`)
      .query({ since: new Date(0).toISOString() })
      .set('Authorization', alice.auth)
      .expect(200);
  });

  it('deletes a collection with its records (master only)', async () => {
    await declare('trash').expect(201);
    await post('trash', alice.auth, { x: 1 }).expect(201);
    await t.http
      .delete(admin('/trash'))
      .set('Authorization', alice.auth)
      .expect(401);
    await t.http
      .delete(admin('/trash'))
      .set('Authorization', MASTER_AUTH)
      .expect(204);
    await t.http
      .get(`/appdata/${APP_KEY}/trash`)
      .set('Authorization', alice.auth)
      .expect(404);
    await declare('trash').expect(201);
    await post('trash', alice.auth, { x: 2 }).expect(201);
    // Kinvey's own RPC for the same, which SDK test suites call.
    await t.http
      .post(`/rpc/${APP_KEY}/remove-collection`)
      .set('Authorization', alice.auth)
      .send({ collectionName: 'trash' })
      .expect(401);
    const removed = await t.http
      .post(`/rpc/${APP_KEY}/remove-collection`)
      .set('Authorization', MASTER_AUTH)
      .send({ collectionName: 'trash' })
      .expect(200);
    expect(removed.body).toEqual({ count: 1 });
    await declare('trash').expect(201);
    const empty = await t.http
      .get(`/appdata/${APP_KEY}/trash`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(empty.body).toEqual([]);
  });

  it('an app made by the CLI, without the produce definition, creating collections on first write', async () => {
    const app = await createAppByCli(t.gw, [
      '--name',
      'Todo',
      '--definition',
      'none',
    ]);
    const env = { DATABASE_URL: t.gw.databaseUrl, DATA_DIR: t.gw.dataDir };
    const rule = await runCli(
      [
        'marketplace:collections:create',
        '--app',
        app.appKey,
        'todos',
        '--settings',
        '{"schema": {"type": "object", "required": ["title"]}}',
      ],
      env,
    );
    expect(rule.code).toBe(0);

    // Implicit user, as Kinvey SDK test suites start.
    const user = await t.http
      .post(`/user/${app.appKey}`)
      .set('Authorization', basic(app.appKey, app.appSecret))
      .expect(201);
    const auth = `Kinvey ${user.body._kmd.authtoken as string}`;
    await t.http
      .post(`/appdata/${app.appKey}/todos`)
      .set('Authorization', auth)
      .send({ done: false })
      .expect(400);
    await t.http
      .post(`/appdata/${app.appKey}/todos`)
      .set('Authorization', auth)
      .send({ title: 'Buy fruit' })
      .expect(201);
    // Never declared: a read sees an empty collection, the first write declares it.
    const none = await t.http
      .get(`/appdata/${app.appKey}/books`)
      .set('Authorization', auth)
      .expect(200);
    expect(none.body).toEqual([]);
    await t.http
      .post(`/appdata/${app.appKey}/books`)
      .set('Authorization', auth)
      .send({ title: 'Dune', year: 1965 })
      .expect(201);
    const books = await t.http
      .get(`/appdata/${app.appKey}/books`)
      .query({ query: JSON.stringify({ year: { $gt: 1900 } }) })
      .set('Authorization', auth)
      .expect(200);
    expect(books.body).toEqual([
      expect.objectContaining({ title: 'Dune', year: 1965 }),
    ]);
    const listed = await runCli(
      ['marketplace:collections:list', '--app', app.appKey],
      env,
    );
    // Only what the operator and the first writes declared: no produce app.
    expect(
      listed.stdout.split('\n').map((line) => line.split('\t')[0]),
    ).toEqual(['books', 'todos', '']);
    // Nothing crosses apps.
    await t.http
      .get(`/appdata/${APP_KEY}/books`)
      .set('Authorization', alice.auth)
      .expect(404);
  }, 120_000);
});
