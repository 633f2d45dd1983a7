import type { TestingModule } from '@nestjs/testing';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import { marketplaceTestModule } from '../../testing/marketplace-test-module';
import { MarketplaceDatabase } from '../persistence/marketplace-database';
import { RecordsRepository } from './records.repository';

const DOCS: Array<[string, unknown]> = [
  ['string', 'a'],
  ['array-with', ['b', 'a']],
  ['array-without', ['b']],
  ['object', { a: 'a' }],
  ['number', 1],
  ['number-array', [2, 1]],
  ['number-text', '1'],
  ['missing', undefined],
];

describe('finds over the GIN-indexed documents', () => {
  let database: TestDatabase;
  let module: TestingModule;

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await marketplaceTestModule(database.url, [RecordsRepository]);
    const now = new Date();
    for (const [id, value] of DOCS)
      await module.get(RecordsRepository).insert({
        appKey: 'kid_finder',
        collection: 'assortment',
        id,
        doc: value === undefined ? { _id: id } : { _id: id, v: value },
        creator: 'kid_finder',
        uniqueName: null,
        now,
      });
  });

  afterAll(async () => {
    await module?.close();
    await database?.close();
  });

  async function ids(filter: unknown): Promise<string[]> {
    const docs = await module.get(MarketplaceDatabase).find({
      table: 'records',
      scope: { app_key: 'kid_finder', collection: 'assortment' },
      filter,
    });
    return docs.map((doc) => String(doc['_id'])).sort();
  }

  it('keeps MongoDB semantics: scalars and arrays holding them match, nothing else', async () => {
    await expect(ids({ v: 'a' })).resolves.toEqual(['array-with', 'string']);
    await expect(ids({ v: 1 })).resolves.toEqual(['number', 'number-array']);
    await expect(ids({ v: '1' })).resolves.toEqual(['number-text']);
    await expect(ids({ v: 'a', _id: 'string' })).resolves.toEqual(['string']);
    await expect(ids({ v: { $ne: 'a' } })).resolves.toEqual(
      [
        'array-without',
        'missing',
        'number',
        'number-array',
        'number-text',
        'object',
      ].sort(),
    );
  });
});
