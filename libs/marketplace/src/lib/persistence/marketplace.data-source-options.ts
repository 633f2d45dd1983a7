import { contextDataSourceOptions } from '@quitanda/database';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';

import {
  MARKETPLACE_DATA_SOURCE,
  MARKETPLACE_SCHEMA,
} from '../common/marketplace.constants';
import { MARKETPLACE_ENTITIES } from './entities';
import { MARKETPLACE_MIGRATIONS } from './migrations';

export function marketplaceDataSourceOptions(
  url: string,
  poolSize?: number,
  readUrl?: string,
): PostgresConnectionOptions {
  // JIT is turned off per query where it matters (RecordsRepository.select),
  // not by a startup option: PgBouncer refuses those.
  return contextDataSourceOptions({
    name: MARKETPLACE_DATA_SOURCE,
    schema: MARKETPLACE_SCHEMA,
    url,
    entities: MARKETPLACE_ENTITIES,
    migrations: MARKETPLACE_MIGRATIONS,
    readUrl,
    poolSize,
  });
}
