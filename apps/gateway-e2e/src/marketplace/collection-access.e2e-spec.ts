import {
  MASTER_AUTH,
  adminPath as admin,
  kinveyError,
  startMarketplace,
} from './marketplace-support';
import type { MarketplaceTest, TestUser } from './marketplace-support';

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
});
