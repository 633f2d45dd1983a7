import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';
import { DataSource } from 'typeorm';

import { marketplaceDataSourceOptions } from './marketplace.data-source-options';

describe('marketplace connections', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await openTestDatabase();
  });

  afterAll(() => database.close());

  it('run with JIT off (compiled jsonb queries would spend a second compiling)', async () => {
    const dataSource = new DataSource(
      marketplaceDataSourceOptions(database.url, 1),
    );
    await dataSource.initialize();
    try {
      // The embedded PGlite has no JIT at all (and ignores startup options).
      const rows: Array<{ jit: string; available: boolean }> =
        await dataSource.query(
          `SELECT current_setting('jit') AS jit, pg_jit_available() AS available`,
        );
      const { jit, available } = rows[0] ?? { jit: 'on', available: true };
      expect(jit === 'off' || !available).toBe(true);
    } finally {
      await dataSource.destroy();
    }
  });
});
