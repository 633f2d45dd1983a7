import type { TestingModule } from '@nestjs/testing';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';
import { Client } from 'pg';

import { marketplaceTestModule } from '../../testing/marketplace-test-module';
import { textFieldsOf } from './collections';
import type { CollectionName } from './collections';
import { MarketplaceDatabase } from '../persistence/marketplace-database';
import { findSelect } from '../query/find-query';
import type { FindSpec } from '../query/find-query';

const APP = 'kid_plans';
const RECORDS = 6_000;
const PRODUCERS = 300;

/**
 * The queries the SDKs send most, over a collection large enough that the
 * planner prefers an index only when one fits: each must be served by the
 * index made for it (the compiler's text and the migration's expression
 * must stay the same for that).
 */
describe('finds: the common queries are index-served', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let client: Client;

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await marketplaceTestModule(database.url, []);
    client = new Client({ connectionString: database.url });
    await client.connect();
    await client.query(
      `INSERT INTO marketplace.records (app_key, collection, id, doc, creator, unique_name, created_at, updated_at)
       SELECT $1::text, c.name, c.name || g, jsonb_build_object('_id', c.name || g,
                'id_producer', 'p' || (g % $3::int), 'name', 'Product ' || g, 'measurement', 'kg',
                '_acl', jsonb_build_object('creator', $1::text),
                '_kmd', jsonb_build_object('lmt', to_char(timestamp '2026-01-01' + g * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))),
              $1::text, NULL, now(), now()
         FROM generate_series(1, $2::int) AS g,
              (VALUES ('availableAssortment'), ('product')) AS c(name)`,
      [APP, RECORDS, PRODUCERS],
    );
    await client.query('ANALYZE marketplace.records');
  });

  afterAll(async () => {
    await client?.end();
    await module?.close();
    await database?.close();
  });

  async function plan(
    collection: CollectionName,
    query: Pick<FindSpec, 'filter' | 'sort' | 'limit' | 'readableBy'>,
  ): Promise<string> {
    const select = findSelect({
      table: 'records',
      scope: { app_key: APP, collection },
      textFields: textFieldsOf(collection),
      ...query,
    });
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN ${select.text}`,
      [...select.values],
    );
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  }

  it("serves a producer's records from the id_producer index", async () => {
    await expect(
      plan('availableAssortment', { filter: { id_producer: 'p7' } }),
    ).resolves.toMatch(/Index Scan using records_id_producer_idx/);
    await expect(
      plan('availableAssortment', {
        filter: { id_producer: { $in: ['p7', 'p8', 'p9'] } },
      }),
    ).resolves.toMatch(/records_id_producer_idx/);
  });

  it('serves a range on _kmd.lmt from its index', async () => {
    await expect(
      plan('availableAssortment', {
        filter: { '_kmd.lmt': { $gte: '2026-01-05T03:00:00.000Z' } },
      }),
    ).resolves.toMatch(/records_kmd_lmt_idx/);
  });

  it('serves a sort by name with a limit from the name index', async () => {
    await expect(
      plan('product', { sort: { name: 1 }, limit: 20 }),
    ).resolves.toMatch(/Index Scan using records_name_idx/);
    await expect(
      plan('product', { sort: { name: -1 }, limit: 20 }),
    ).resolves.toMatch(/Index Scan Backward using records_name_idx/);
  });

  it('serves a plain listing with a limit in creation order', async () => {
    await expect(plan('product', { limit: 50 })).resolves.toMatch(
      /Index Scan using records_created_idx/,
    );
  });

  it('uses the same indexes when reading as app credentials or a user (_acl rules)', async () => {
    for (const readableBy of [null, 'p7']) {
      await expect(
        plan('availableAssortment', {
          filter: { id_producer: 'p7' },
          readableBy,
        }),
      ).resolves.toMatch(/Index Scan using records_id_producer_idx/);
      await expect(plan('product', { limit: 50, readableBy })).resolves.toMatch(
        /Index Scan using records_created_idx/,
      );
    }
  });

  it('finds the same records through the index as the documents hold', async () => {
    const docs = await module.get(MarketplaceDatabase).find({
      table: 'records',
      scope: { app_key: APP, collection: 'availableAssortment' },
      textFields: textFieldsOf('availableAssortment'),
      filter: { id_producer: 'p7' },
    });
    expect(docs).toHaveLength(RECORDS / PRODUCERS);
    expect(docs.every((doc) => doc['id_producer'] === 'p7')).toBe(true);
  });
});
