import { Client } from 'pg';

import {
  APP_AUTH,
  APP_KEY,
  MASTER_AUTH,
  OTHER_APP_KEY,
  basic,
  kinveyError,
  startMarketplace,
} from './marketplace-support';
import type { MarketplaceTest } from './marketplace-support';

/** What the Kinvey SDKs rely on (reference, section 7) and every bad input the contract names. */
describe('Kinvey SDK behaviours and bad inputs (e2e)', () => {
  let t: MarketplaceTest;
  let user: { id: string; auth: string };
  let other: { id: string; auth: string };

  beforeAll(async () => {
    t = await startMarketplace({
      MARKETPLACE_MAX_UPLOAD_BYTES: '64',
      MARKETPLACE_MAX_BODY_BYTES: '2048',
    });
    user = await t.signup('sdk@example.com');
    other = await t.signup('other@example.com');
  });

  afterAll(() => t?.gw.close());

  const assortment = (
    producer: string,
    extra: Record<string, unknown> = {},
  ) => ({
    id_producer: producer,
    canceled: 'false',
    products: [
      { name: 'Tomate', measurement: 'kg', quantity: '1', price: '2.00' },
    ],
    ...extra,
  });

  describe('SDK checklist', () => {
    it('own update returns _kmd.authtoken; a new password revokes the other sessions', async () => {
      const me = await t.signup('update@example.com', { name: 'Before' });
      const second = await t.http
        .post(`/user/${APP_KEY}/login`)
        .set('Authorization', APP_AUTH)
        .send({
          username: 'update@example.com',
          password: 'correct horse battery',
        })
        .expect(200);
      const res = await t.http
        .put(`/user/${APP_KEY}/${me.id}`)
        .set('Authorization', me.auth)
        .send({ ...me.body, password: 'a brand new password', name: 'After' })
        .expect(200);
      expect(res.body).toMatchObject({
        _id: me.id,
        name: 'After',
        _kmd: { authtoken: me.auth.slice(7) },
      });
      expect(res.body.password).toBeUndefined();
      await t.http
        .get(`/user/${APP_KEY}/_me`)
        .set('Authorization', me.auth)
        .expect(200);
      await t.http
        .get(`/user/${APP_KEY}/_me`)
        .set('Authorization', `Kinvey ${second.body._kmd.authtoken}`)
        .expect(401);
      await t.http
        .get(`/user/${APP_KEY}/_me`)
        .set(
          'Authorization',
          basic('update@example.com', 'a brand new password'),
        )
        .expect(200);
    });

    it('counts, multi-inserts (API version 5+), upserts, deletes, and reports delta sets with tombstones', async () => {
      const start = await t.http
        .get(`/appdata/${APP_KEY}/availableAssortment`)
        .set('Authorization', user.auth)
        .expect(200);
      const since = start.headers['x-kinvey-request-start'] as string;

      const multi = await t.http
        .post(`/appdata/${APP_KEY}/availableAssortment`)
        .set('Authorization', user.auth)
        .set('X-Kinvey-Api-Version', '6')
        .send([
          assortment(user.id),
          { id_producer: user.id, products: 'nope' },
          assortment(user.id, { _id: 'client-id-1' }),
        ])
        .expect(201);
      expect(multi.body.entities).toEqual([
        expect.objectContaining({ _id: expect.any(String) }),
        null,
        expect.objectContaining({ _id: 'client-id-1' }),
      ]);
      expect(multi.body.errors).toEqual([
        { index: 1, code: 'BadRequest', errmsg: expect.any(String) },
      ]);
      const old = await t.http
        .post(`/appdata/${APP_KEY}/availableAssortment`)
        .set('Authorization', user.auth)
        .set('X-Kinvey-API-Version', '4')
        .send([assortment(user.id)])
        .expect(400);
      expect(old.body).toEqual(kinveyError('FeatureUnavailable'));

      const count = await t.http
        .get(
          `/appdata/${APP_KEY}/availableAssortment/_count?query=${encodeURIComponent(JSON.stringify({ id_producer: user.id }))}`,
        )
        .set('Authorization', user.auth)
        .expect(200);
      expect(count.body).toEqual({ count: 2 });

      const upsert = await t.http
        .put(`/appdata/${APP_KEY}/availableAssortment/upserted-1`)
        .set('Authorization', user.auth)
        .send(assortment(user.id))
        .expect(201);
      expect(upsert.body._id).toBe('upserted-1');
      await t.http
        .put(`/appdata/${APP_KEY}/availableAssortment/upserted-1`)
        .set('Authorization', user.auth)
        .send({ ...upsert.body, canceled: true })
        .expect(200);

      const del = await t.http
        .delete(`/appdata/${APP_KEY}/availableAssortment/client-id-1`)
        .set('Authorization', user.auth)
        .expect(200);
      expect(del.body).toEqual({ count: 1 });

      const delta = await t.http
        .get(
          `/appdata/${APP_KEY}/availableAssortment/_deltaset?since=${encodeURIComponent(since)}`,
        )
        .set('Authorization', user.auth)
        .expect(200);
      expect(delta.body.deleted).toEqual([{ _id: 'client-id-1' }]);
      expect(
        delta.body.changed.map((r: { _id: string }) => r._id).sort(),
      ).toEqual([multi.body.entities[0]._id, 'upserted-1'].sort());

      const byQuery = await t.http
        .delete(
          `/appdata/${APP_KEY}/availableAssortment?query=${encodeURIComponent(JSON.stringify({ canceled: 'true' }))}`,
        )
        .set('Authorization', user.auth)
        .expect(200);
      expect(byQuery.body).toEqual({ count: 1 });
      await t.http
        .delete(`/appdata/${APP_KEY}/availableAssortment`)
        .set('Authorization', user.auth)
        .expect(400);
    });

    it('sorts, pages and aggregates with _group without running client code', async () => {
      for (const quantity of ['3', '1', '2'])
        await t.http
          .post(`/appdata/${APP_KEY}/requiredAssortment`)
          .set('Authorization', other.auth)
          .send({
            id_producer: other.id,
            canceled: 'false',
            products: [],
            note: quantity,
            n: Number(quantity),
          })
          .expect(201);
      const query = encodeURIComponent(
        JSON.stringify({ id_producer: other.id }),
      );
      const sorted = await t.http
        .get(
          `/appdata/${APP_KEY}/requiredAssortment?query=${query}&sort=${encodeURIComponent('{"n":-1}')}&limit=2&skip=1`,
        )
        .set('Authorization', other.auth)
        .expect(200);
      expect(sorted.body.map((r: { note: string }) => r.note)).toEqual([
        '2',
        '1',
      ]);
      expect(typeof sorted.body[0].n).toBe('number');

      const group = await t.http
        .post(`/appdata/${APP_KEY}/requiredAssortment/_group`)
        .set('Authorization', other.auth)
        .send({
          key: { id_producer: true },
          initial: { result: 0 },
          reduce: 'function(doc, out) { out.result += doc["n"]; }',
          condition: { id_producer: other.id },
        })
        .expect(200);
      expect(group.body).toEqual([{ id_producer: other.id, result: 6 }]);
      const evil = await t.http
        .post(`/appdata/${APP_KEY}/requiredAssortment/_group`)
        .set('Authorization', other.auth)
        .send({
          key: {},
          initial: { r: 0 },
          reduce: 'function(doc, out) { process.exit(1); }',
        })
        .expect(400);
      expect(evil.body).toEqual(kinveyError('FeatureUnavailable'));
    });

    it('refuses more than 10,000 results without a limit (ResultSetSizeExceeded), pages with limit and skip', async () => {
      const db = new Client({ connectionString: t.gw.databaseUrl });
      await db.connect();
      try {
        await db.query(
          `INSERT INTO marketplace.records (app_key, collection, id, doc, creator, created_at, updated_at)
           SELECT $1, 'requiredAssortment', 'bulk-' || n,
                  jsonb_build_object('_id', 'bulk-' || n, 'id_producer', $2::text, 'canceled', 'true', 'bulk', true, '_acl', jsonb_build_object('creator', $1::text)),
                  $1, now(), now()
             FROM generate_series(1, 10001) AS n`,
          [APP_KEY, user.id],
        );
      } finally {
        await db.end();
      }
      const bulk = encodeURIComponent('{"bulk":true}');
      const all = await t.http
        .get(`/appdata/${APP_KEY}/requiredAssortment?query=${bulk}`)
        .set('Authorization', MASTER_AUTH)
        .expect(400);
      expect(all.body).toEqual(kinveyError('ResultSetSizeExceeded'));
      const count = await t.http
        .get(`/appdata/${APP_KEY}/requiredAssortment/_count?query=${bulk}`)
        .set('Authorization', MASTER_AUTH)
        .expect(200);
      expect(count.body).toEqual({ count: 10001 });
      const page = await t.http
        .get(
          `/appdata/${APP_KEY}/requiredAssortment?query=${bulk}&limit=10000&skip=10000`,
        )
        .set('Authorization', MASTER_AUTH)
        .expect(200);
      expect(page.body).toHaveLength(1);
      const removed = await t.http
        .delete(`/appdata/${APP_KEY}/requiredAssortment?query=${bulk}`)
        .set('Authorization', MASTER_AUTH)
        .expect(200);
      expect(removed.body).toEqual({ count: 10001 });
    });

    it('looks users up without passwords, hides soft-deleted ones, and deletes with the master secret only', async () => {
      const gone = await t.signup('gone@example.com');
      const lookup = await t.http
        .post(`/user/${APP_KEY}/_lookup`)
        .set('Authorization', user.auth)
        .send({ username: 'gone@example.com' })
        .expect(200);
      expect(lookup.body).toEqual([expect.objectContaining({ _id: gone.id })]);
      expect(lookup.body[0].password).toBeUndefined();

      const denied = await t.http
        .delete(`/user/${APP_KEY}/${gone.id}`)
        .set('Authorization', user.auth)
        .expect(401);
      expect(denied.body).toEqual(kinveyError('InsufficientCredentials'));
      await t.http
        .delete(`/user/${APP_KEY}/${gone.id}`)
        .set('Authorization', MASTER_AUTH)
        .expect(204);
      const after = await t.http
        .post(`/user/${APP_KEY}/_lookup`)
        .set('Authorization', user.auth)
        .send({ username: 'gone@example.com' })
        .expect(200);
      expect(after.body).toEqual([]);
      const exists = await t.http
        .post(`/rpc/${APP_KEY}/check-username-exists`)
        .set('Authorization', APP_AUTH)
        .send({ username: 'gone@example.com' })
        .expect(200);
      expect(exists.body).toEqual({ usernameExists: true });
      await t.http
        .get(`/user/${APP_KEY}/_me`)
        .set('Authorization', gone.auth)
        .expect(401);
      await t.http
        .delete(`/user/${APP_KEY}/${gone.id}?hard=true`)
        .set('Authorization', MASTER_AUTH)
        .expect(204);
      const unknown = await t.http
        .delete(`/user/${APP_KEY}/${gone.id}`)
        .set('Authorization', MASTER_AUTH)
        .expect(404);
      expect(unknown.body).toEqual(kinveyError('UserNotFound'));
    });

    it('refuses a taken username (UserAlreadyExists) and a short password', async () => {
      const taken = await t.http
        .post(`/user/${APP_KEY}`)
        .set('Authorization', APP_AUTH)
        .send({ username: 'sdk@example.com', password: 'another password' })
        .expect(409);
      expect(taken.body).toEqual(kinveyError('UserAlreadyExists'));
      const short = await t.http
        .post(`/user/${APP_KEY}`)
        .set('Authorization', APP_AUTH)
        .send({ username: 'short@example.com', password: 'short' })
        .expect(400);
      expect(short.body).toEqual(kinveyError('BadRequest'));
      const missing = await t.http
        .post(`/user/${APP_KEY}`)
        .set('Authorization', APP_AUTH)
        .send({ password: 'a password without a username' })
        .expect(400);
      expect(missing.body).toEqual(kinveyError('IncompleteRequestBody'));
      // Usernames are case-sensitive.
      await t.http
        .post(`/user/${APP_KEY}`)
        .set('Authorization', APP_AUTH)
        .send({ username: 'SDK@example.com', password: 'another password' })
        .expect(201);
    });

    it('answers FeatureUnavailable for password reset, e-mail verification and social login', async () => {
      for (const path of [
        'sdk@example.com/user-password-reset-initiate',
        'sdk@example.com/user-email-verification-initiate',
        'user-forgot-username',
      ]) {
        const res = await t.http
          .post(`/rpc/${APP_KEY}/${path}`)
          .set('Authorization', APP_AUTH)
          .expect(400);
        expect(res.body).toEqual(kinveyError('FeatureUnavailable'));
      }
      const social = await t.http
        .post(`/user/${APP_KEY}/login`)
        .set('Authorization', APP_AUTH)
        .send({ _socialIdentity: { facebook: { access_token: 'x' } } })
        .expect(400);
      expect(social.body).toEqual(kinveyError('FeatureUnavailable'));
    });

    it('answers CORS preflights and exposes the Kinvey headers', async () => {
      const res = await t.http
        .options(`/appdata/${APP_KEY}/product`)
        .set('Origin', 'http://localhost:8100')
        .set('Access-Control-Request-Method', 'POST')
        .set(
          'Access-Control-Request-Headers',
          'authorization, content-type, x-kinvey-api-version, x-kinvey-device-info',
        )
        .expect(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-headers']).toMatch(
        /Authorization/,
      );
      expect(res.headers['access-control-allow-headers']).toMatch(
        /x-kinvey-device-info/i,
      );
      const get = await t.http
        .get(`/appdata/${APP_KEY}`)
        .set('Origin', 'http://x')
        .set('Authorization', APP_AUTH)
        .expect(200);
      expect(get.headers['access-control-expose-headers']).toMatch(
        /X-Kinvey-Request-Id/,
      );
      expect(get.headers['access-control-expose-headers']).toMatch(
        /X-Kinvey-Request-Start/,
      );
    });
  });

  describe('resumable uploads', () => {
    it('probes with 308 while incomplete, resumes chunks, answers 200 when complete', async () => {
      const created = await t.http
        .post(`/blob/${APP_KEY}`)
        .set('Authorization', user.auth)
        .send({ _filename: 'a.txt', mimeType: 'text/plain', size: 10 })
        .expect(201);
      const url = new URL(created.body._uploadURL);
      const path = `${url.pathname}${url.search}`;
      const probe = await t.http
        .put(path)
        .set('Content-Range', 'bytes */10')
        .expect(308);
      expect(probe.headers['range']).toBeUndefined();
      await t.http
        .put(path)
        .set('Content-Range', 'bytes 0-3/10')
        .send(Buffer.from('0123'))
        .expect(308);
      const half = await t.http
        .put(path)
        .set('Content-Range', 'bytes */10')
        .expect(308);
      expect(half.headers['range']).toBe('bytes=0-3');
      // A chunk that does not continue where the bytes end is not applied.
      const skipped = await t.http
        .put(path)
        .set('Content-Range', 'bytes 6-9/10')
        .send(Buffer.from('6789'))
        .expect(308);
      expect(skipped.headers['range']).toBe('bytes=0-3');
      await t.http
        .put(path)
        .set('Content-Range', 'bytes 4-9/10')
        .send(Buffer.from('456789'))
        .expect(201);
      await t.http.put(path).set('Content-Range', 'bytes */10').expect(200);

      const meta = await t.http
        .get(`/blob/${APP_KEY}/${created.body._id}`)
        .set('Authorization', user.auth)
        .expect(200);
      expect(meta.body._expiresAt).toEqual(expect.any(String));
      const dl = new URL(meta.body._downloadURL);
      const range = await t.http
        .get(`${dl.pathname}${dl.search}`)
        .set('Range', 'bytes=2-5')
        .expect(206);
      expect(range.text).toBe('2345');
      expect(range.headers['content-range']).toBe('bytes 2-5/10');
      const etag = range.headers['etag'] as string;
      await t.http
        .get(`${dl.pathname}${dl.search}`)
        .set('If-None-Match', etag)
        .expect(304);

      const listed = await t.http
        .get(
          `/blob/${APP_KEY}?query=${encodeURIComponent('{"_filename":"a.txt"}')}`,
        )
        .set('Authorization', user.auth)
        .expect(200);
      expect(listed.body).toEqual([
        expect.objectContaining({
          _id: created.body._id,
          _downloadURL: expect.any(String),
        }),
      ]);
      const removed = await t.http
        .delete(`/blob/${APP_KEY}/${created.body._id}`)
        .set('Authorization', user.auth)
        .expect(200);
      expect(removed.body).toEqual({ count: 1 });
      const missing = await t.http
        .get(`/blob/${APP_KEY}/${created.body._id}`)
        .set('Authorization', user.auth)
        .expect(404);
      expect(missing.body).toEqual(kinveyError('BlobNotFound'));
    });
  });

  describe('bad inputs', () => {
    const get = (path: string, auth = user.auth) =>
      t.http.get(path).set('Authorization', auth);

    it('malformed query JSON, unknown operator, geo operators and bad limit', async () => {
      const malformed = await get(
        `/appdata/${APP_KEY}/product?query=${encodeURIComponent('{"name":')}`,
      ).expect(400);
      expect(malformed.body).toEqual(kinveyError('InvalidQuerySyntax'));
      const unknown = await get(
        `/appdata/${APP_KEY}/product?query=${encodeURIComponent('{"name":{"$foo":1}}')}`,
      ).expect(400);
      expect(unknown.body).toEqual(kinveyError('InvalidQuerySyntax'));
      const geo = await get(
        `/appdata/${APP_KEY}/product?query=${encodeURIComponent('{"loc":{"$nearSphere":[1,2]}}')}`,
      ).expect(400);
      expect(geo.body).toEqual(kinveyError('FeatureUnavailable'));
      for (const limit of ['-1', 'abc', '1.5']) {
        const res = await get(
          `/appdata/${APP_KEY}/product?limit=${limit}`,
        ).expect(400);
        expect(res.body).toEqual(kinveyError('BadRequest'));
      }
    });

    it('unknown collection, unknown app, unknown record', async () => {
      expect((await get(`/appdata/${APP_KEY}/fruit`).expect(404)).body).toEqual(
        kinveyError('CollectionNotFound'),
      );
      expect((await get(`/appdata/kid_nope/product`).expect(404)).body).toEqual(
        kinveyError('AppNotFound'),
      );
      expect(
        (await get(`/appdata/${APP_KEY}/product/nope`).expect(404)).body,
      ).toEqual(kinveyError('EntityNotFound'));
    });

    it("wrong credentials, missing credentials and another app's credentials", async () => {
      for (const auth of [
        basic(APP_KEY, 'wrong-secret'),
        'Kinvey not-a-token',
        basic('sdk@example.com', 'wrong password'),
        basic(OTHER_APP_KEY, 'app-secret-0123456789abcdef'),
      ]) {
        const res = await get(`/appdata/${APP_KEY}/product`, auth).expect(401);
        expect(res.body).toEqual(kinveyError('InvalidCredentials'));
      }
      const none = await t.http.get(`/appdata/${APP_KEY}/product`).expect(401);
      expect(none.body).toEqual(kinveyError('InvalidCredentials'));
    });

    it("another user's record: readable, not writable (InsufficientCredentials)", async () => {
      const mine = await t.http
        .post(`/appdata/${APP_KEY}/availableAssortment`)
        .set('Authorization', user.auth)
        .send(assortment(user.id))
        .expect(201);
      await get(
        `/appdata/${APP_KEY}/availableAssortment/${mine.body._id}`,
        other.auth,
      ).expect(200);
      const put = await t.http
        .put(`/appdata/${APP_KEY}/availableAssortment/${mine.body._id}`)
        .set('Authorization', other.auth)
        .send(assortment(other.id))
        .expect(401);
      expect(put.body).toEqual(kinveyError('InsufficientCredentials'));
      const del = await t.http
        .delete(`/appdata/${APP_KEY}/availableAssortment/${mine.body._id}`)
        .set('Authorization', other.auth)
        .expect(401);
      expect(del.body).toEqual(kinveyError('InsufficientCredentials'));

      const secret = await t.http
        .post(`/appdata/${APP_KEY}/availableAssortment`)
        .set('Authorization', user.auth)
        .send(assortment(user.id, { _acl: { gr: false } }))
        .expect(201);
      await get(
        `/appdata/${APP_KEY}/availableAssortment/${secret.body._id}`,
        other.auth,
      ).expect(401);
      const visible = await get(
        `/appdata/${APP_KEY}/availableAssortment?query=${encodeURIComponent(JSON.stringify({ _id: secret.body._id }))}`,
        other.auth,
      ).expect(200);
      expect(visible.body).toEqual([]);
      // App credentials never update.
      await t.http
        .put(`/appdata/${APP_KEY}/availableAssortment/${mine.body._id}`)
        .set('Authorization', APP_AUTH)
        .send(assortment(user.id))
        .expect(401);
    });

    it('validation: missing fields, wrong values, unknown producer, missing file, bad JSON', async () => {
      const post = (coll: string, body: unknown) =>
        t.http
          .post(`/appdata/${APP_KEY}/${coll}`)
          .set('Authorization', APP_AUTH)
          .send(body as object);
      const missing = await post('product', { measurement: 'kg' }).expect(400);
      expect(missing.body).toEqual(kinveyError('IncompleteRequestBody'));
      const wrong = await post('product', {
        name: 'Uva',
        measurement: 'box',
      }).expect(400);
      expect(wrong.body).toEqual(kinveyError('BadRequest'));
      expect(wrong.body.debug).toMatch(/measurement/);
      const both = await post('availableAssortment', {
        id_producer: user.id,
        canceled: 'maybe',
        products: [
          { name: 'x', measurement: 'g', quantity: 'many', price: '1' },
        ],
      }).expect(400);
      expect(both.body.debug).toMatch(/canceled/);
      expect(both.body.debug).toMatch(/measurement/);
      expect(both.body.debug).toMatch(/quantity/);
      await post('assortment', {
        id_producer: 'no-such-user',
        canceled: 'false',
      }).expect(400);
      const noFile = await post('product', {
        name: 'Kiwi',
        measurement: 'un',
        image: { _type: 'KinveyFile', _id: 'nope' },
      }).expect(400);
      expect(noFile.body).toEqual(kinveyError('BadRequest'));
      const json = await t.http
        .post(`/appdata/${APP_KEY}/product`)
        .set('Authorization', APP_AUTH)
        .set('Content-Type', 'application/json')
        .send('{"name": ')
        .expect(400);
      expect(json.body).toEqual(kinveyError('JSONParseError'));
    });

    it('oversized body, oversized upload, expired upload URL, tampered download URL', async () => {
      const big = await t.http
        .post(`/appdata/${APP_KEY}/product`)
        .set('Authorization', APP_AUTH)
        .send({ name: 'x'.repeat(4096), measurement: 'kg' })
        .expect(413);
      expect(big.body).toEqual(kinveyError('RequestEntityTooLarge'));

      const tooBig = await t.http
        .post(`/blob/${APP_KEY}`)
        .set('Authorization', user.auth)
        .send({ _filename: 'big', size: 65 })
        .expect(413);
      expect(tooBig.body).toEqual(kinveyError('RequestEntityTooLarge'));
      const small = await t.http
        .post(`/blob/${APP_KEY}`)
        .set('Authorization', user.auth)
        .send({ _filename: 'small', size: 4 })
        .expect(201);
      const upload = new URL(small.body._uploadURL);
      await t.http
        .put(`${upload.pathname}${upload.search}`)
        .send(Buffer.from('12345'))
        .expect(413);

      const expired = new URLSearchParams(upload.search);
      expired.set('expires', '1');
      const old = await t.http
        .put(`${upload.pathname}?${expired}`)
        .send(Buffer.from('1234'))
        .expect(401);
      expect(old.body).toEqual(kinveyError('InvalidCredentials'));

      await t.http
        .put(`${upload.pathname}${upload.search}`)
        .send(Buffer.from('1234'))
        .expect(201);
      const meta = await t.http
        .get(`/blob/${APP_KEY}/${small.body._id}`)
        .set('Authorization', user.auth)
        .expect(200);
      const download = new URL(meta.body._downloadURL);
      await t.http.get(`${download.pathname}${download.search}`).expect(200);
      const tampered = new URLSearchParams(download.search);
      tampered.set('signature', `${tampered.get('signature')?.slice(0, -2)}xx`);
      const bad = await t.http
        .get(`${download.pathname}?${tampered}`)
        .expect(401);
      expect(bad.body).toEqual(kinveyError('InvalidCredentials'));
      const otherFile = download.pathname.replace(small.body._id, 'other-id');
      await t.http.get(`${otherFile}${download.search}`).expect(401);
    });

    it('throttles repeated failed logins with 429, whether the user exists or not', async () => {
      await t.signup('throttle@example.com');
      for (const username of ['throttle@example.com', 'nobody@example.com']) {
        const statuses: number[] = [];
        const millis: number[] = [];
        for (let i = 0; i < 6; i++) {
          const started = Date.now();
          const res = await t.http
            .post(`/user/${APP_KEY}/login`)
            .set('Authorization', APP_AUTH)
            .send({ username, password: 'wrong password!' });
          statuses.push(res.status);
          millis.push(Date.now() - started);
        }
        expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
        // Slowed before refused: the fifth failure waits at least 400 ms.
        expect(millis[4]).toBeGreaterThanOrEqual(400);
      }
      const locked = await t.http
        .post(`/user/${APP_KEY}/login`)
        .set('Authorization', APP_AUTH)
        .send({
          username: 'throttle@example.com',
          password: 'correct horse battery',
        })
        .expect(429);
      expect(locked.body).toEqual(kinveyError('TooManyRequests'));
    });
  });
});
