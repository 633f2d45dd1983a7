import { contextDataSourceOptions } from '@quitanda/database';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';

import {
  ERROR_TRACKING_DATA_SOURCE,
  ERROR_TRACKING_SCHEMA,
} from '../error-tracking.constants';
import { ERROR_TRACKING_MIGRATIONS } from './migrations';

export function errorTrackingDataSourceOptions(
  url: string,
  poolSize?: number,
): PostgresConnectionOptions {
  return contextDataSourceOptions({
    name: ERROR_TRACKING_DATA_SOURCE,
    schema: ERROR_TRACKING_SCHEMA,
    url,
    entities: [],
    migrations: ERROR_TRACKING_MIGRATIONS,
    poolSize,
  });
}
