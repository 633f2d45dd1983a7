import {
  APP_AUTH,
  APP_KEY,
  MASTER_AUTH,
  kinveyError,
  startMarketplace,
} from './marketplace-support';
import type { MarketplaceTest } from './marketplace-support';

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
});
