import { contextDataSourceOptions } from '@quitanda/database';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';

import {
  MARKETPLACE_DATA_SOURCE,
  MARKETPLACE_SCHEMA,
} from '../marketplace.constants';
import { MARKETPLACE_ENTITIES } from './entities';
import { MARKETPLACE_MIGRATIONS } from './migrations';

export function marketplaceDataSourceOptions(
  url: string,
  poolSize?: number,
): PostgresConnectionOptions {
  const options = contextDataSourceOptions({
    name: MARKETPLACE_DATA_SOURCE,
    schema: MARKETPLACE_SCHEMA,
    url,
    entities: MARKETPLACE_ENTITIES,
    migrations: MARKETPLACE_MIGRATIONS,
    poolSize,
  });
  // PostgreSQL estimates jsonb set functions at hundreds of rows, so compiled
  // queries over a few thousand records would be JIT-compiled (about a
  // second each); without JIT they take milliseconds.
  return { ...options, extra: { ...options.extra, options: '-c jit=off' } };
}
