import { InjectDataSource } from '@nestjs/typeorm';
import { sqlRepository } from '@quitanda/database';
import { DataSource } from 'typeorm';

import { MARKETPLACE_DATA_SOURCE } from '../common/marketplace.constants';
import { MarketplaceDatabase } from './marketplace-database';

/**
 * What every repository of the marketplace extends: `sql` and `replica`,
 * and `db`, the runner of the SELECTs the query compiler builds.
 */
export abstract class MarketplaceRepository extends sqlRepository(
  MARKETPLACE_DATA_SOURCE,
) {
  constructor(
    @InjectDataSource(MARKETPLACE_DATA_SOURCE) dataSource: DataSource,
    protected readonly db: MarketplaceDatabase,
  ) {
    super(dataSource);
  }
}
