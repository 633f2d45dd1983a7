import { openTestDatabase, schemaDrift } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import { eventsDataSourceOptions } from './events.data-source-options';

describe('events migrations', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await openTestDatabase();
  });

  afterAll(() => database.close());

  it('create exactly what the entities describe (run `npm run migration:generate -- events <Name>` otherwise)', async () => {
    await expect(
      schemaDrift(eventsDataSourceOptions(database.url)),
    ).resolves.toEqual([]);
  });
});
