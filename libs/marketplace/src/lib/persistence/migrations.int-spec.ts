import { openTestDatabase, schemaDrift } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import { marketplaceDataSourceOptions } from './marketplace.data-source-options';

describe('marketplace migrations', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await openTestDatabase();
  });

  afterAll(() => database.close());

  it('create exactly what the entities describe (run `npm run migration:generate -- marketplace <Name>` otherwise)', async () => {
    await expect(
      schemaDrift(marketplaceDataSourceOptions(database.url)),
    ).resolves.toEqual([]);
  });
});
