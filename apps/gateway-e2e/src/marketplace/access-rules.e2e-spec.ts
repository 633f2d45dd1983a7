import {
  APP_AUTH,
  APP_KEY,
  MASTER_AUTH,
  kinveyError,
  startMarketplace,
} from './marketplace-support';
import type { MarketplaceTest } from './marketplace-support';

type User = Awaited<ReturnType<MarketplaceTest['signup']>>;

/**
 * Who reads and writes what, as an attacker holding the app secret (it
 * ships inside the mobile app) or a user account would try it.
 */
describe('marketplace access rules (e2e)', () => {
  let t: MarketplaceTest;
  let n = 0;

  beforeAll(async () => {
    t = await startMarketplace();
  });

  afterAll(() => t?.gw.close());

  const signup = () => t.signup(`access-${++n}@example.com`);
  const q = (filter: unknown) => encodeURIComponent(JSON.stringify(filter));

  const offer = (producer: string, extra: Record<string, unknown> = {}) => ({
    id_producer: producer,
    canceled: 'false',
    products: [
      { name: 'Caqui', measurement: 'kg', quantity: '3', price: '4.00' },
    ],
    ...extra,
  });

  /** A file's metadata (no bytes needed for these rules). */
  async function file(auth: string, extra: Record<string, unknown> = {}) {
    const res = await t.http
      .post(`/blob/${APP_KEY}`)
      .set('Authorization', auth)
      .send({ _filename: 'f.png', mimeType: 'image/png', size: 4, ...extra })
      .expect(201);
    return res.body as { _id: string; _acl: Record<string, unknown> };
  }

  describe('reserved ids (item 1)', () => {
    it.each([
      ['the app key', APP_KEY],
      ['another app key', 'kid_someOtherApp0001'],
    ])(
      'refuses a signup whose _id is %s, with app or master credentials',
      async (_what, id) => {
        for (const auth of [APP_AUTH, MASTER_AUTH]) {
          const res = await t.http
            .post(`/user/${APP_KEY}`)
            .set('Authorization', auth)
            .send({
              _id: id,
              username: `taker-${++n}@example.com`,
              password: 'correct horse battery',
            })
            .expect(400);
          expect(res.body).toEqual(kinveyError('BadRequest'));
          expect(res.body.debug).toMatch(/_id/);
        }
      },
    );

    it('leaves a user no way into what app credentials wrote', async () => {
      const product = await t.http
        .post(`/appdata/${APP_KEY}/product`)
        .set('Authorization', APP_AUTH)
        .send({ name: 'Pitanga', measurement: 'kg', _acl: { gr: false } })
        .expect(201);
      expect(product.body._acl.creator).toBe(APP_KEY);
      const taken = await t.http
        .post(`/user/${APP_KEY}`)
        .set('Authorization', APP_AUTH)
        .send({
          _id: APP_KEY,
          username: 'owner@example.com',
          password: 'correct horse battery',
        });
      expect(taken.status).toBe(400);
      const someone = await signup();
      const url = `/appdata/${APP_KEY}/product/${product.body._id}`;
      await t.http.get(url).set('Authorization', someone.auth).expect(401);
      await t.http
        .put(url)
        .set('Authorization', someone.auth)
        .send({ name: 'Pitanga', measurement: 'un' })
        .expect(401);
      await t.http.delete(url).set('Authorization', someone.auth).expect(401);
    });
  });

  describe('app credentials read what every user may read (item 3)', () => {
    it('neither list, count, group, delta-set nor fetch a record whose _acl.gr is false', async () => {
      const owner = await signup();
      const hidden = await t.http
        .post(`/appdata/${APP_KEY}/availableAssortment`)
        .set('Authorization', owner.auth)
        .send(offer(owner.id, { _acl: { gr: false } }))
        .expect(201);
      const byOwner = { id_producer: owner.id };
      const base = `/appdata/${APP_KEY}/availableAssortment`;
      const app = (path: string) =>
        t.http.get(path).set('Authorization', APP_AUTH);

      expect(
        (await app(`${base}?query=${q(byOwner)}`).expect(200)).body,
      ).toEqual([]);
      expect(
        (await app(`${base}/_count?query=${q(byOwner)}`).expect(200)).body,
      ).toEqual({ count: 0 });
      const fetched = await app(`${base}/${hidden.body._id}`).expect(401);
      expect(fetched.body).toEqual(kinveyError('InsufficientCredentials'));
      const delta = await app(
        `${base}/_deltaset?since=2000-01-01T00:00:00.000Z&query=${q(byOwner)}`,
      ).expect(200);
      expect(delta.body.changed).toEqual([]);
      const group = await t.http
        .post(`${base}/_group`)
        .set('Authorization', APP_AUTH)
        .send({
          key: { id_producer: true },
          initial: { count: 0 },
          reduce: 'function(doc, out) { out.count++; }',
          condition: byOwner,
        })
        .expect(200);
      expect(group.body).toEqual([]);

      // Master still reads everything.
      const all = await t.http
        .get(`${base}?query=${q(byOwner)}`)
        .set('Authorization', MASTER_AUTH)
        .expect(200);
      expect(all.body.map((r: { _id: string }) => r._id)).toEqual([
        hidden.body._id,
      ]);
    });

    it('neither list nor fetch (nor get a download URL of) a file whose _acl.gr is false', async () => {
      const owner = await signup();
      const hidden = await file(owner.auth, { _acl: { gr: false } });
      const shown = await file(owner.auth);
      const fetched = await t.http
        .get(`/blob/${APP_KEY}/${hidden._id}`)
        .set('Authorization', APP_AUTH)
        .expect(404);
      expect(fetched.body).toEqual(kinveyError('BlobNotFound'));
      const listed = await t.http
        .get(
          `/blob/${APP_KEY}?query=${q({ _id: { $in: [hidden._id, shown._id] } })}`,
        )
        .set('Authorization', APP_AUTH)
        .expect(200);
      expect(listed.body.map((f: { _id: string }) => f._id)).toEqual([
        shown._id,
      ]);
      await t.http
        .get(`/blob/${APP_KEY}/${hidden._id}`)
        .set('Authorization', MASTER_AUTH)
        .expect(200);
    });
  });

  describe('file references expand only for readers of the file (item 7)', () => {
    it('answers a reference to a file the writer may not read as one to a missing file', async () => {
      const owner = await signup();
      const intruder = await signup();
      const hidden = await file(owner.auth, { _acl: { gr: false } });
      const refTo = (id: string) => ({
        name: `Figo ${++n}`,
        measurement: 'un',
        image: { _type: 'KinveyFile', _id: id },
      });
      const post = (auth: string, id: string) =>
        t.http
          .post(`/appdata/${APP_KEY}/product`)
          .set('Authorization', auth)
          .send(refTo(id));
      const missing = await post(intruder.auth, 'no-such-file').expect(400);
      const denied = await post(intruder.auth, hidden._id).expect(400);
      expect(denied.body).toEqual(kinveyError('BadRequest'));
      expect(denied.body.description).toBe(missing.body.description);
      expect(denied.body.debug).toBe(hidden._id);
      await post(APP_AUTH, hidden._id).expect(400);
      await post(owner.auth, hidden._id).expect(201);
    });

    it('leaves the reference unexpanded, without a download URL, for other readers', async () => {
      const owner = await signup();
      const reader = await signup();
      const hidden = await file(owner.auth, { _acl: { gr: false } });
      const product = await t.http
        .post(`/appdata/${APP_KEY}/product`)
        .set('Authorization', owner.auth)
        .send({
          name: `Jaca ${++n}`,
          measurement: 'un',
          image: { _type: 'KinveyFile', _id: hidden._id },
        })
        .expect(201);
      expect(product.body.image._downloadURL).toEqual(expect.any(String));
      const ref = { _type: 'KinveyFile', _id: hidden._id };
      const one = `/appdata/${APP_KEY}/product/${product.body._id}`;
      const list = `/appdata/${APP_KEY}/product?query=${q({ _id: product.body._id })}`;
      for (const auth of [reader.auth, APP_AUTH]) {
        const got = await t.http
          .get(one)
          .set('Authorization', auth)
          .expect(200);
        expect(got.body.image).toEqual(ref);
        const listed = await t.http
          .get(list)
          .set('Authorization', auth)
          .expect(200);
        expect(listed.body[0].image).toEqual(ref);
      }
      for (const auth of [owner.auth, MASTER_AUTH]) {
        const listed = await t.http
          .get(list)
          .set('Authorization', auth)
          .expect(200);
        expect(listed.body[0].image._downloadURL).toEqual(expect.any(String));
      }
    });
    it('lets a user granted _acl.w update a record as read, keeping a reference it may not expand', async () => {
      const owner = await signup();
      const writer = await signup();
      const hidden = await file(owner.auth, { _acl: { gr: false } });
      const url = `/appdata/${APP_KEY}/product/p-${++n}`;
      await t.http
        .put(url)
        .set('Authorization', owner.auth)
        .send({
          name: `Graviola ${n}`,
          measurement: 'un',
          image: { _type: 'KinveyFile', _id: hidden._id },
          _acl: { w: [writer.id] },
        })
        .expect(201);
      const read = await t.http
        .get(url)
        .set('Authorization', writer.auth)
        .expect(200);
      const { _kmd: _k, ...asRead } = read.body;
      await t.http
        .put(url)
        .set('Authorization', writer.auth)
        .send({ ...asRead, measurement: 'kg' })
        .expect(200);
    });
  });

  describe('matching (item 8)', () => {
    it('uses neither offers nor needs whose _acl.gr is false for those who may not read them', async () => {
      const seller = await signup();
      const buyer = await signup();
      const name = `Cambuci ${++n}`;
      const item = { name, measurement: 'kg', quantity: '1', price: '2.00' };
      await t.http
        .post(`/appdata/${APP_KEY}/availableAssortment`)
        .set('Authorization', seller.auth)
        .send(offer(seller.id, { products: [item], _acl: { gr: false } }))
        .expect(201);
      const ask = (auth: string, body: unknown) =>
        t.http
          .post(`/rpc/${APP_KEY}/custom/match`)
          .set('Authorization', auth)
          .send(body as object)
          .expect(200);
      const needed = { required: [{ name, measurement: 'kg', quantity: '1' }] };
      expect((await ask(buyer.auth, needed)).body.matches[0].offers).toEqual(
        [],
      );
      expect(
        (await ask(MASTER_AUTH, needed)).body.matches[0].offers,
      ).toHaveLength(1);

      await t.http
        .post(`/appdata/${APP_KEY}/requiredAssortment`)
        .set('Authorization', seller.auth)
        .send({
          id_producer: seller.id,
          canceled: 'false',
          products: [{ name: 'Uvaia', measurement: 'kg', quantity: '1' }],
          _acl: { gr: false },
        })
        .expect(201);
      const needs = await ask(buyer.auth, { id_producer: seller.id });
      expect(needs.body.matches).toEqual([]);
      const own = await ask(seller.auth, { id_producer: seller.id });
      expect(own.body.matches).toHaveLength(1);
    });
  });

  describe('id_producer of a user write is that user (item 12)', () => {
    it('refuses another user as id_producer on create and update; app and master name any user', async () => {
      const me = await signup();
      const victim = await signup();
      const base = `/appdata/${APP_KEY}/availableAssortment`;
      for (const coll of [
        'assortment',
        'availableAssortment',
        'requiredAssortment',
      ]) {
        const res = await t.http
          .post(`/appdata/${APP_KEY}/${coll}`)
          .set('Authorization', me.auth)
          .send({ id_producer: victim.id, canceled: 'false' })
          .expect(400);
        expect(res.body).toEqual(kinveyError('BadRequest'));
        expect(res.body.debug).toMatch(/id_producer/);
      }
      const mine = await t.http
        .post(base)
        .set('Authorization', me.auth)
        .send(offer(me.id))
        .expect(201);
      await t.http
        .put(`${base}/${mine.body._id}`)
        .set('Authorization', me.auth)
        .send(offer(victim.id))
        .expect(400);
      await t.http
        .put(`${base}/new-${++n}`)
        .set('Authorization', me.auth)
        .send(offer(victim.id))
        .expect(400);
      for (const auth of [APP_AUTH, MASTER_AUTH])
        await t.http
          .post(base)
          .set('Authorization', auth)
          .send(offer(victim.id))
          .expect(201);
    });

    it("lets a user granted _acl.w update a record that keeps its producer's id", async () => {
      const producer = await signup();
      const helper = await signup();
      const base = `/appdata/${APP_KEY}/availableAssortment`;
      const shared = await t.http
        .post(base)
        .set('Authorization', producer.auth)
        .send(offer(producer.id, { _acl: { w: [helper.id] } }))
        .expect(201);
      await t.http
        .put(`${base}/${shared.body._id}`)
        .set('Authorization', helper.auth)
        .send(offer(producer.id, { canceled: 'true' }))
        .expect(200);
    });
  });

  describe('user lookups honour the user own _acl.gr (item 13)', () => {
    let hidden: User;
    let grantee: User;

    beforeAll(async () => {
      hidden = await signup();
      grantee = await signup();
      const { _kmd: _k, ...body } = hidden.body;
      await t.http
        .put(`/user/${APP_KEY}/${hidden.id}`)
        .set('Authorization', hidden.auth)
        .send({ ...body, _acl: { gr: false, r: [grantee.id] } })
        .expect(200);
    });

    it('hides the user from other users in get, find and _lookup', async () => {
      const stranger = await signup();
      const byId = { _id: hidden.id };
      const got = await t.http
        .get(`/user/${APP_KEY}/${hidden.id}`)
        .set('Authorization', stranger.auth)
        .expect(401);
      expect(got.body).toEqual(kinveyError('InsufficientCredentials'));
      const found = await t.http
        .get(`/user/${APP_KEY}?query=${q(byId)}`)
        .set('Authorization', stranger.auth)
        .expect(200);
      expect(found.body).toEqual([]);
      const looked = await t.http
        .post(`/user/${APP_KEY}/_lookup`)
        .set('Authorization', stranger.auth)
        .send(byId)
        .expect(200);
      expect(looked.body).toEqual([]);
    });

    it('shows the user to itself, to the ids in its _acl.r and to master', async () => {
      for (const auth of [hidden.auth, grantee.auth, MASTER_AUTH]) {
        await t.http
          .get(`/user/${APP_KEY}/${hidden.id}`)
          .set('Authorization', auth)
          .expect(200);
        const found = await t.http
          .get(`/user/${APP_KEY}?query=${q({ _id: hidden.id })}`)
          .set('Authorization', auth)
          .expect(200);
        expect(found.body).toHaveLength(1);
      }
    });
  });

  describe("only a file's creator or master changes its _acl and _public (item 15)", () => {
    it('keeps _acl and _public when a user in _acl.w replaces the file', async () => {
      const owner = await signup();
      const writer = await signup();
      const shared = await file(owner.auth, {
        _acl: { gr: false, w: [writer.id] },
      });
      const replace = (auth: string, acl: Record<string, unknown>) =>
        t.http
          .put(`/blob/${APP_KEY}/${shared._id}`)
          .set('Authorization', auth)
          .send({
            _filename: 'renamed.png',
            mimeType: 'image/png',
            size: 4,
            _public: true,
            _acl: acl,
          })
          .expect(201);
      const replaced = await replace(writer.auth, {
        gr: true,
        w: [writer.id],
        r: [writer.id],
      });
      expect(replaced.body._filename).toBe('renamed.png');
      expect(replaced.body._public).toBe(false);
      expect(replaced.body._acl).toEqual({
        creator: owner.id,
        gr: false,
        w: [writer.id],
      });
      const stranger = await signup();
      await t.http
        .get(`/blob/${APP_KEY}/${shared._id}`)
        .set('Authorization', stranger.auth)
        .expect(404);

      const byOwner = await replace(owner.auth, { gr: true });
      expect(byOwner.body._public).toBe(true);
      expect(byOwner.body._acl).toEqual({ creator: owner.id, gr: true });
    });
  });
});
