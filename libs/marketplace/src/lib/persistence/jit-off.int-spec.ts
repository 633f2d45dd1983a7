import { poolOf } from '@quitanda/database';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';
import { DataSource } from 'typeorm';

import { MarketplaceDatabase } from './marketplace-database';
import { marketplaceDataSourceOptions } from './marketplace.data-source-options';

const JIT = `SELECT current_setting('jit') AS jit, pg_jit_available() AS available`;
/** As the compiler's general form reads paths: a jsonb set function. */
const COMPILED = `${JIT}, (SELECT count(*) FROM jsonb_path_query('[1]'::jsonb, 'lax $[*]')) AS n`;

describe('marketplace connections', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await openTestDatabase();
    // One connection: what a query leaves behind, the next one sees.
    dataSource = new DataSource(marketplaceDataSourceOptions(database.url, 1));
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.close();
  });

  it('send no startup options (PgBouncer refuses them)', () => {
    expect(dataSource.options.extra).not.toHaveProperty('options');
  });

  it('run compiled selects with JIT off (they would spend a second compiling), for that transaction only', async () => {
    const pool = poolOf(dataSource);
    const before = (await pool.query<{ jit: string }>(JIT)).rows[0]?.jit;
    const rows = await new MarketplaceDatabase(dataSource).select<{
      jit: string;
      available: boolean;
    }>(COMPILED, [], false);
    // The embedded PGlite has no JIT at all.
    const { jit, available } = rows[0] ?? { jit: 'on', available: true };
    expect(jit === 'off' || !available).toBe(true);
    // Nothing outlives the transaction on the (possibly pooled) session.
    const after = (await pool.query<{ jit: string }>(JIT)).rows[0]?.jit;
    expect(after).toBe(before);
  });

  it('run plain selects (no set functions) as one statement, without that transaction', async () => {
    const pool = poolOf(dataSource);
    const before = (await pool.query<{ jit: string }>(JIT)).rows[0]?.jit;
    const rows = await new MarketplaceDatabase(dataSource).select<{
      jit: string;
    }>(JIT, [], false);
    expect(rows[0]?.jit).toBe(before);
  });
});
