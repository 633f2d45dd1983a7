import { errorTrackingDataSourceOptions } from '@quitanda/error-tracking';
import { eventsDataSourceOptions } from '@quitanda/events';
import { marketplaceDataSourceOptions } from '@quitanda/marketplace';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';

/** Where each context keeps its migrations, for the generator. */
export interface MigrationTarget {
  readonly options: (url: string) => PostgresConnectionOptions;
  readonly directory: string;
}

export const MIGRATION_TARGETS: Record<string, MigrationTarget> = {
  marketplace: {
    options: (url) => marketplaceDataSourceOptions(url),
    directory: 'libs/marketplace/src/lib/persistence/migrations',
  },
  'error-tracking': {
    options: (url) => errorTrackingDataSourceOptions(url),
    directory: 'libs/error-tracking/src/lib/persistence/migrations',
  },
  events: {
    options: (url) => eventsDataSourceOptions(url),
    directory: 'libs/events/src/lib/persistence/migrations',
  },
};
