import {
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

  beforeAll(async () => {
    t = await startMarketplace();
    alice = await t.signup('alice@example.com');
  });

  afterAll(() => t?.gw.close());

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
