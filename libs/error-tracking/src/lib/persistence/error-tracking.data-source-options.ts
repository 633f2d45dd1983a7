import { contextDataSourceOptions } from '@quitanda/database';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';

import {
  ERROR_TRACKING_DATA_SOURCE,
  ERROR_TRACKING_SCHEMA,
} from '../common/error-tracking.constants';
import { ERROR_TRACKING_ENTITIES } from './entities';
import { ERROR_TRACKING_MIGRATIONS } from './migrations';

export function errorTrackingDataSourceOptions(
  url: string,
  poolSize?: number,
  readUrl?: string,
): PostgresConnectionOptions {
  return contextDataSourceOptions({
    name: ERROR_TRACKING_DATA_SOURCE,
    schema: ERROR_TRACKING_SCHEMA,
    url,
    entities: ERROR_TRACKING_ENTITIES,
    migrations: ERROR_TRACKING_MIGRATIONS,
    readUrl,
    poolSize,
  });
}
