import {
  APP_KEY,
  MASTER_AUTH,
  createAppByCli,
  adminPath as admin,
  kinveyError,
  startMarketplace,
} from './marketplace-support';
import type { CliApp, MarketplaceTest, TestUser } from './marketplace-support';

/**
 * What a collection's settings let one user learn of another's records,
 * and what a refused write leaves behind (issue #34, second review).
 */
describe('marketplace collection access (e2e)', () => {
  let t: MarketplaceTest;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await startMarketplace();
    alice = await t.signup('alice@example.com');
    bob = await t.signup('bob@example.com');
  });

  afterAll(() => t?.gw.close());

  /** Runs `work` with the collection's level set to `level`, then restores it. */
  async function withLevel(
    name: string,
    level: string,
    work: () => Promise<void>,
  ): Promise<void> {
    const shown = await t.http
      .get(admin(`/${name}`))
      .set('Authorization', MASTER_AUTH)
      .expect(200);
    const settings = shown.body.settings as Record<string, unknown>;
    const put = (next: unknown) =>
      t.http
        .put(admin(`/${name}`))
        .set('Authorization', MASTER_AUTH)
        .send({ settings: next })
        .expect(200);
    await put({ ...settings, permissions: level });
    try {
      await work();
    } finally {
      await put(settings);
    }
  }

  const match = (auth: string, body: unknown) =>
    t.http
      .post(`/rpc/${APP_KEY}/custom/match`)
      .set('Authorization', auth)
      .send(body as object)
      .expect(200);

  describe("matching reads by the collection's permission level (finding 4)", () => {
    it("shows Bob no offer of Alice's in a private availableAssortment, as his list and _count do not", async () => {
      await withLevel('availableAssortment', 'private', async () => {
        const item = { name: 'Grumixama', measurement: 'kg', quantity: '2' };
        const offer = await t
          .post('availableAssortment', alice.auth, {
            id_producer: alice.id,
            canceled: 'false',
            products: [{ ...item, price: '9.50' }],
          })
          .expect(201);
        const mine = { id_producer: alice.id };
        const base = `/appdata/${APP_KEY}/availableAssortment`;
        const list = await t.http
          .get(base)
          .query({ query: JSON.stringify(mine) })
          .set('Authorization', bob.auth)
          .expect(200);
        expect(list.body).toEqual([]);
        const count = await t.http
          .get(`${base}/_count`)
          .query({ query: JSON.stringify(mine) })
          .set('Authorization', bob.auth)
          .expect(200);
        expect(count.body).toEqual({ count: 0 });
        const matched = await match(bob.auth, { required: [item] });
        expect(JSON.stringify(matched.body)).not.toContain(offer.body._id);
        expect(matched.body.matches[0].offers).toEqual([]);
        // Alice's own record, and master, still match.
        const all = await match(MASTER_AUTH, { required: [item] });
        expect(JSON.stringify(all.body)).toContain(offer.body._id);
      });
    });

    it("does not match Alice's needs in a private requiredAssortment for Bob", async () => {
      await t
        .post('availableAssortment', bob.auth, {
          id_producer: bob.id,
          canceled: 'false',
          products: [
            { name: 'Cagaita', measurement: 'un', quantity: '5', price: '1' },
          ],
        })
        .expect(201);
      await withLevel('requiredAssortment', 'private', async () => {
        await t
          .post('requiredAssortment', alice.auth, {
            id_producer: alice.id,
            canceled: 'false',
            products: [{ name: 'Cagaita', measurement: 'un', quantity: '1' }],
          })
          .expect(201);
        const asked = await match(bob.auth, { id_producer: alice.id });
        expect(asked.body.matches).toEqual([]);
        const own = await match(alice.auth, { id_producer: alice.id });
        expect(own.body.matches).toHaveLength(1);
      });
    });
  });

  describe('what a user learns of records it may not read (finding 9)', () => {
    it('answers a reference to a record the writer may not read as one to a missing record', async () => {
      await t.declare('vault', { permissions: 'private' }).expect(201);
      await t
        .declare('links', {
          references: [{ field: 'to', to: 'collection', collection: 'vault' }],
        })
        .expect(201);
      const secret = await t.post('vault', alice.auth, { pin: '1234' });
      expect(secret.status).toBe(201);
      const missing = await t
        .post('links', bob.auth, { to: 'no-such-record' })
        .expect(400);
      const hidden = await t
        .post('links', bob.auth, { to: secret.body._id })
        .expect(400);
      expect(hidden.body).toEqual(missing.body);
      await t.post('links', alice.auth, { to: secret.body._id }).expect(201);
    });

    it('refuses a unique field on a private collection, declared or changed to, and changes nothing', async () => {
      const unique = [{ field: 'email' }];
      const refused = await t
        .declare('contacts', { permissions: 'private', unique })
        .expect(400);
      expect(refused.body).toEqual(kinveyError('BadRequest'));
      expect(refused.body.debug).toMatch(/unique/);
      await t.declare('emails', { unique }).expect(201);
      await t.http
        .put(admin('/emails'))
        .set('Authorization', MASTER_AUTH)
        .send({ settings: { unique, permissions: 'private' } })
        .expect(400);
      const kept = await t.http
        .get(admin('/emails'))
        .set('Authorization', MASTER_AUTH)
        .expect(200);
      expect(kept.body.settings.permissions).toBeUndefined();
    });

    it('lists in _deltaset only the deletions of records the caller could read', async () => {
      const since = new Date().toISOString();
      await t
        .declare('journal', { permissions: 'private', deltaSet: true })
        .expect(201);
      await t.declare('board', { deltaSet: true }).expect(201);
      const made = async (coll: string, body: object) =>
        (await t.post(coll, alice.auth, body).expect(201)).body._id as string;
      const privateEntry = await made('journal', { text: 'mine' });
      const hiddenNote = await made('board', { _acl: { gr: false } });
      const openNote = await made('board', { text: 'for all' });
      for (const [coll, id] of [
        ['journal', privateEntry],
        ['board', hiddenNote],
        ['board', openNote],
      ])
        await t.http
          .delete(`/appdata/${APP_KEY}/${coll}/${id}`)
          .set('Authorization', alice.auth)
          .expect(200);
      const deleted = async (coll: string, auth: string) =>
        (
          await t.http
            .get(`/appdata/${APP_KEY}/${coll}/_deltaset`)
            .query({ since })
            .set('Authorization', auth)
            .expect(200)
        ).body.deleted;
      expect(await deleted('journal', bob.auth)).toEqual([]);
      expect(await deleted('board', bob.auth)).toEqual([{ _id: openNote }]);
      expect(await deleted('journal', alice.auth)).toEqual([
        { _id: privateEntry },
      ]);
      expect(await deleted('board', alice.auth)).toEqual(
        expect.arrayContaining([{ _id: hiddenNote }, { _id: openNote }]),
      );
    });
  });

  describe("the user collection's permission level (finding 12)", () => {
    const users = (auth: string) =>
      t.http.get(`/user/${APP_KEY}`).set('Authorization', auth).expect(200);
    const ids = (body: Array<{ _id: string }>) => body.map((u) => u._id);

    it("shows every user's profile to every user by default (Kinvey's Shared)", async () => {
      const carol = await t.signup('carol@example.com', {
        email: 'carol@example.com',
        phone: '+55 81 5555-0000',
      });
      const seen = await users(bob.auth);
      expect(seen.body).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            _id: carol.id,
            email: 'carol@example.com',
            phone: '+55 81 5555-0000',
          }),
        ]),
      );
      expect(seen.body[0]).not.toHaveProperty('password');
    });

    it('set to private, shows a user only itself; master sees everyone', async () => {
      await t.declare('user', { permissions: 'private' }).expect(201);
      try {
        expect(ids((await users(bob.auth)).body)).toEqual([bob.id]);
        const get = await t.http
          .get(`/user/${APP_KEY}/${alice.id}`)
          .set('Authorization', bob.auth)
          .expect(401);
        expect(get.body).toEqual(kinveyError('InsufficientCredentials'));
        const lookup = await t.http
          .post(`/user/${APP_KEY}/_lookup`)
          .set('Authorization', bob.auth)
          .send({ username: 'alice@example.com' })
          .expect(200);
        expect(lookup.body).toEqual([]);
        await t.http
          .get(`/user/${APP_KEY}/${alice.id}`)
          .set('Authorization', alice.auth)
          .expect(200);
        expect(ids((await users(MASTER_AUTH)).body)).toEqual(
          expect.arrayContaining([alice.id, bob.id]),
        );
        // Nor does a reference to a user tell Bob that Alice exists.
        await t
          .declare('gifts', { references: [{ field: 'to', to: 'user' }] })
          .expect(201);
        const missing = await t
          .post('gifts', bob.auth, { to: 'no-such-user' })
          .expect(400);
        const hidden = await t
          .post('gifts', bob.auth, { to: alice.id })
          .expect(400);
        expect(hidden.body).toEqual(missing.body);
        await t.post('gifts', bob.auth, { to: bob.id }).expect(201);
        await t.post('gifts', MASTER_AUTH, { to: alice.id }).expect(201);
      } finally {
        await t.http
          .delete(admin('/user'))
          .set('Authorization', MASTER_AUTH)
          .expect(204);
      }
      expect(ids((await users(bob.auth)).body)).toContain(alice.id);
    });

    it('takes only the levels shared and private, and no other setting', async () => {
      for (const settings of [
        { permissions: 'full' },
        { permissions: 'read-only' },
        { schema: { type: 'object' } },
        { unique: [{ field: 'email' }] },
      ]) {
        const res = await t.declare('user', settings).expect(400);
        expect(res.body).toEqual(kinveyError('BadRequest'));
        expect(res.body.debug).toMatch(/user collection/);
      }
    });
  });

  describe('a schema that cannot validate (finding 11)', () => {
    it.each([
      ['refers to itself', 'loops', { $ref: '#' }],
      [
        'loops through two definitions',
        'circles',
        {
          $defs: {
            a: { $ref: '#/$defs/b' },
            b: { allOf: [{ $ref: '#/$defs/a' }] },
          },
          properties: { note: { $ref: '#/$defs/a' } },
        },
      ],
    ])(
      'is refused when set (400) when it %s, and nothing is declared',
      async (_what, name, schema) => {
        const res = await t.declare(name, { schema }).expect(400);
        expect(res.body).toEqual(kinveyError('BadRequest'));
        expect(res.body.debug).toMatch(/^schema:/);
        await t.http
          .get(admin(`/${name}`))
          .set('Authorization', MASTER_AUTH)
          .expect(404);
      },
    );

    it('is refused as a change of settings, which keeps the old ones', async () => {
      await t.declare('memos', { schema: { type: 'object' } }).expect(201);
      await t.http
        .put(admin('/memos'))
        .set('Authorization', MASTER_AUTH)
        .send({ settings: { schema: { $ref: '#' } } })
        .expect(400);
      await t.post('memos', alice.auth, { text: 'still writable' }).expect(201);
    });
  });

  describe('a refused write declares nothing (finding 6)', () => {
    let app: CliApp;

    beforeAll(async () => {
      app = await createAppByCli(t.gw, [
        '--name',
        'Closed',
        '--access',
        'none',
        '--definition',
        'none',
      ]);
    }, 60_000);

    const shown = (name: string) =>
      t.http
        .get(`/admin/${app.appKey}/collections/${name}`)
        .set('Authorization', app.masterAuth);

    it('leaves the collection quota to the operator after 100 refused first writes', async () => {
      for (let i = 0; i < 100; i++) {
        const res = await t.http
          .post(`/appdata/${app.appKey}/spam${i}`)
          .set('Authorization', app.appAuth)
          .send({ n: i })
          .expect(401);
        expect(res.body).toEqual(kinveyError('InsufficientCredentials'));
      }
      const declared = await t.http
        .get(`/admin/${app.appKey}/collections`)
        .set('Authorization', app.masterAuth)
        .expect(200);
      expect(declared.body).toEqual([]);
      await t.http
        .post(`/admin/${app.appKey}/collections`)
        .set('Authorization', app.masterAuth)
        .send({ name: 'orders' })
        .expect(201);
    });

    it('declares nothing for a write that fails after its credentials pass, and declares with the write that succeeds', async () => {
      const user = await t.http
        .post(`/user/${app.appKey}`)
        .set('Authorization', app.appAuth)
        .expect(201);
      const auth = `Kinvey ${user.body._kmd.authtoken as string}`;
      // A reference to a file that does not exist: 400 after every check
      // of the caller passed.
      await t.http
        .post(`/appdata/${app.appKey}/photos`)
        .set('Authorization', auth)
        .send({ image: { _type: 'KinveyFile', _id: 'no-such-file' } })
        .expect(400);
      await shown('photos').expect(404);
      await t.http
        .post(`/appdata/${app.appKey}/photos`)
        .set('Authorization', auth)
        .send({ caption: 'first' })
        .expect(201);
      await shown('photos').expect(200);
    });
  });
});
