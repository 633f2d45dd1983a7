import type { MixedList, EntitySchema } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { SnakeNamingStrategy } from 'typeorm-naming-strategies';

import { connectionFieldsFromUrl } from './connection-url';

/* eslint-disable @typescript-eslint/no-unsafe-function-type -- TypeORM's own list types */
export interface ContextDataSourceSpec {
  /** Nest connection name; also the `application_name` suffix in pg_stat_activity. */
  readonly name: string;
  /** PostgreSQL schema owned by the context; holds its tables and its `migrations` table. */
  readonly schema: string;
  readonly url: string;
  readonly entities: MixedList<Function | string | EntitySchema>;
  readonly migrations: MixedList<Function | string>;
  /** Maximum connections of this context's pool. */
  readonly poolSize?: number;
}
/* eslint-enable @typescript-eslint/no-unsafe-function-type */

/**
 * The one way a context's TypeORM DataSource is configured: its own schema,
 * migrations table and pool; never `synchronize`, never TypeORM's own
 * `migrationsRun` (the gateway runs migrations under an advisory lock).
 */
export function contextDataSourceOptions(
  spec: ContextDataSourceSpec,
): PostgresConnectionOptions {
  return {
    type: 'postgres',
    name: spec.name,
    ...connectionFieldsFromUrl(spec.url),
    schema: spec.schema,
    entities: spec.entities,
    migrations: spec.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    migrationsRun: false,
    synchronize: false,
    namingStrategy: new SnakeNamingStrategy(),
    applicationName: `quitanda:${spec.name}`,
    poolSize: spec.poolSize ?? 10,
    extra: {
      // Fail fast instead of queueing forever when the database is gone.
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
    },
  };
}
