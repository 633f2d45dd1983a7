import { Client } from 'pg';

import { openTestDatabase } from './test-database';
import type { TestDatabase } from './test-database';

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('openTestDatabase', () => {
  let first: TestDatabase;
  let second: TestDatabase;

  beforeAll(async () => {
    [first, second] = await Promise.all([
      openTestDatabase(),
      openTestDatabase(),
    ]);
  });

  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
  });

  it('gives every caller its own database', async () => {
    await query(first.url, 'CREATE TABLE only_in_first (id int)');
    await expect(
      query(first.url, 'SELECT count(*)::int AS n FROM only_in_first'),
    ).resolves.toEqual([{ n: 0 }]);
    await expect(
      query(second.url, 'SELECT count(*) FROM only_in_first'),
    ).rejects.toThrow(/only_in_first/);
  });
});
