import type { MixedList, EntitySchema } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { SnakeNamingStrategy } from 'typeorm-naming-strategies';

import { connectionFieldsFromUrl } from './connection-url';
import { DEFAULT_POOL_SIZE } from './database-defaults';

/* eslint-disable @typescript-eslint/no-unsafe-function-type -- TypeORM's own list types */
export interface ContextDataSourceSpec {
  /** Nest connection name; also the `application_name` suffix in pg_stat_activity. */
  readonly name: string;
  /** PostgreSQL schema owned by the context; holds its tables and its `migrations` table. */
  readonly schema: string;
  readonly url: string;
  /**
   * A streaming replica for the reads a context sends there explicitly
   * (`Sql.replica`); everything else, TypeORM's own reads included, stays on
   * `url`.
   */
  readonly readUrl?: string;
  readonly entities: MixedList<Function | string | EntitySchema>;
  readonly migrations: MixedList<Function | string>;
  /** Maximum connections of this context's pool (and of its read pool). */
  readonly poolSize?: number;
}
/* eslint-enable @typescript-eslint/no-unsafe-function-type */

/**
 * The one way a context's TypeORM DataSource is configured: its own schema,
 * migrations table and pool; never `synchronize`, never TypeORM's own
 * `migrationsRun` (the gateway runs migrations under an advisory lock).
 *
 * Nothing here outlives a transaction on the server (no startup `options`,
 * no session `SET`): connections may come through PgBouncer in transaction
 * pooling mode, where each transaction can land on another server session.
 */
export function contextDataSourceOptions(
  spec: ContextDataSourceSpec,
): PostgresConnectionOptions {
  const primary = connectionFieldsFromUrl(spec.url);
  return {
    type: 'postgres',
    name: spec.name,
    ...(spec.readUrl
      ? {
          replication: {
            master: primary,
            slaves: [connectionFieldsFromUrl(spec.readUrl)],
            // TypeORM would send its own SELECTs to the replica; only the
            // calls that tolerate lag go there, by choice.
            defaultMode: 'master',
          },
        }
      : primary),
    schema: spec.schema,
    entities: spec.entities,
    migrations: spec.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    migrationsRun: false,
    synchronize: false,
    namingStrategy: new SnakeNamingStrategy(),
    applicationName: `quitanda:${spec.name}`,
    poolSize: spec.poolSize ?? DEFAULT_POOL_SIZE,
    extra: {
      // Fail fast instead of queueing forever when the database is gone.
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
    },
  };
}
