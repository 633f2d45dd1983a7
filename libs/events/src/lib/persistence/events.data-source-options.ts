import { contextDataSourceOptions } from '@quitanda/database';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';

import { EVENTS_DATA_SOURCE, EVENTS_SCHEMA } from '../common/events.constants';
import { EventRecordEntity } from './event-record.entity';
import { EVENTS_MIGRATIONS } from './migrations';

export function eventsDataSourceOptions(
  url: string,
  poolSize?: number,
  readUrl?: string,
): PostgresConnectionOptions {
  return contextDataSourceOptions({
    name: EVENTS_DATA_SOURCE,
    schema: EVENTS_SCHEMA,
    url,
    entities: [EventRecordEntity],
    migrations: EVENTS_MIGRATIONS,
    readUrl,
    poolSize,
  });
}
