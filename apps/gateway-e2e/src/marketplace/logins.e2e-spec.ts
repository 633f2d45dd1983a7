import { Client } from 'pg';

import { kinveyError, startMarketplace } from './marketplace-support';
import type { MarketplaceTest } from './marketplace-support';

/** Kinvey logins with hostile input. */
describe('marketplace logins (e2e)', () => {
  let t: MarketplaceTest;

  beforeAll(async () => {
    t = await startMarketplace();
  });

  afterAll(() => t?.gw.close());

  async function longestStoredUsername(): Promise<number> {
    const db = new Client({ connectionString: t.gw.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ n: number }>(
        'SELECT coalesce(max(length(username)), 0)::int AS n FROM marketplace.login_attempts',
      );
      return rows[0]?.n ?? 0;
    } finally {
      await db.end();
    }
  }

  it('answers InvalidCredentials to a very long username or password, never a 500, and stores no such name', async () => {
    await t.signup('long@example.com');
    for (const [username, password] of [
      ['u'.repeat(500_000), 'correct horse battery'],
      ['u'.repeat(256), 'correct horse battery'],
      ['long@example.com', 'p'.repeat(500_000)],
    ] as const) {
      const res = await t.login(username, password).expect(401);
      expect(res.body).toEqual(kinveyError('InvalidCredentials'));
    }
    expect(await longestStoredUsername()).toBeLessThanOrEqual(255);
    await t.login('long@example.com', 'correct horse battery').expect(200);
  });
});
