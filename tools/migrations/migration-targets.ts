import { CONTEXT_CATALOG } from '@quitanda/gateway';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';

/** Where each context keeps its migrations, for the generator. */
export interface MigrationTarget {
  readonly options: (url: string) => PostgresConnectionOptions;
  readonly directory: string;
}

/** One target per context of the gateway's catalogue, by context name. */
export const MIGRATION_TARGETS: Readonly<Record<string, MigrationTarget>> =
  Object.fromEntries(
    CONTEXT_CATALOG.map((entry) => [
      entry.name,
      {
        options: (url: string) => entry.dataSourceOptions(url),
        directory: entry.migrationsDirectory,
      },
    ]),
  );
