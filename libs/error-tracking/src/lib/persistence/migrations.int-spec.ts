import { openTestDatabase, schemaDrift } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import { errorTrackingDataSourceOptions } from './error-tracking.data-source-options';

describe('error-tracking migrations', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await openTestDatabase();
  });

  afterAll(() => database.close());

  it('create exactly what the entities describe (run `npm run migration:generate -- error-tracking <Name>` otherwise)', async () => {
    await expect(
      schemaDrift(errorTrackingDataSourceOptions(database.url)),
    ).resolves.toEqual([]);
  });
});
