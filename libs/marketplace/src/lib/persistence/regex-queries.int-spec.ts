import type { TestingModule } from '@nestjs/testing';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import { marketplaceTestModule } from '../../testing/marketplace-test-module';
import { REGEX_STATEMENT_TIMEOUT_MS } from '../common/marketplace.constants';
import {
  MarketplaceError,
  MarketplaceErrorCode,
} from '../common/marketplace.errors';
import { MarketplaceDatabase } from './marketplace-database';

// PGlite (the embedded default) runs in one thread without the timer that
// enforces statement_timeout: only a PostgreSQL server can show the cut-off.
const onServer = Boolean(process.env['DATABASE_URL']);

describe('queries with regular expressions', () => {
  let database: TestDatabase;
  let module: TestingModule;

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await marketplaceTestModule(database.url, []);
  });

  afterAll(async () => {
    await module?.close();
    await database?.close();
  });

  it('answer normally when they finish in time', async () => {
    await expect(
      module
        .get(MarketplaceDatabase)
        .select<{ ok: boolean }>("SELECT 'abc' ~ $1 AS ok", ['^a'], true),
    ).resolves.toEqual([{ ok: true }]);
  });

  it('answer InvalidQuerySyntax when PostgreSQL rejects the pattern', async () => {
    const error = await module
      .get(MarketplaceDatabase)
      .select("SELECT 'abc' ~ $1 AS ok", ['(unclosed'], true)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MarketplaceError);
    expect((error as MarketplaceError).code).toBe(
      MarketplaceErrorCode.InvalidQuerySyntax,
    );
  });

  (onServer ? it : it.skip)(
    'are cut off by the statement timeout with a Kinvey BadRequest',
    async () => {
      const started = Date.now();
      const error = await module
        .get(MarketplaceDatabase)
        .select(
          'SELECT pg_sleep($1::float8)',
          [(REGEX_STATEMENT_TIMEOUT_MS * 3) / 1000],
          true,
        )
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(MarketplaceError);
      expect((error as MarketplaceError).code).toBe(
        MarketplaceErrorCode.BadRequest,
      );
      expect(Date.now() - started).toBeLessThan(REGEX_STATEMENT_TIMEOUT_MS * 2);
    },
  );

  it('leave the connection without the timeout afterwards', async () => {
    const rows = await module
      .get(MarketplaceDatabase)
      .select<{ statement_timeout: string }>(
        'SHOW statement_timeout',
        [],
        false,
      );
    expect(rows).toEqual([{ statement_timeout: '0' }]);
  });
});
