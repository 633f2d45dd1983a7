import {
  APP_AUTH,
  APP_KEY,
  MASTER_AUTH,
  kinveyError,
  startMarketplace,
} from './marketplace-support';
import type { MarketplaceTest } from './marketplace-support';

/** Signups with the public app secret, limited per client address. */
describe('marketplace signups per client address (e2e)', () => {
  let t: MarketplaceTest;

  beforeAll(async () => {
    t = await startMarketplace({
      MARKETPLACE_SIGNUPS_PER_CLIENT_PER_HOUR: '3',
    });
  });

  afterAll(async () => {
    await t?.gw.close();
  });

  const signup = (username: string, auth = APP_AUTH) =>
    t.http
      .post(`/user/${APP_KEY}`)
      .set('Authorization', auth)
      .send({ username, password: 'correct horse battery' });

  it('refuses app-credential signups past the limit with 429, creating nothing, whatever X-Forwarded-For says', async () => {
    for (const username of ['s1', 's2', 's3'])
      await signup(username).expect(201);
    const refused = await signup('s4').expect(429);
    expect(refused.body).toEqual(kinveyError('TooManyRequests'));
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Without TRUST_PROXY the header is the client's word, not its address.
    await signup('s5').set('X-Forwarded-For', '203.0.113.9').expect(429);
    const taken = await t.http
      .post(`/rpc/${APP_KEY}/check-username-exists`)
      .set('Authorization', APP_AUTH)
      .send({ username: 's4' })
      .expect(200);
    expect(taken.body).toEqual({ usernameExists: false });
    // The operator's master secret is not limited.
    await signup('by-master', MASTER_AUTH).expect(201);
  });
});
