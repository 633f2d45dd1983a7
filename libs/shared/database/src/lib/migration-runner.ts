import { DataSource, MigrationExecutor } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';

/**
 * Transaction-level advisory lock every Quitanda process takes before
 * migrating, so replicas booting together migrate one at a time and the
 * others find nothing left to do. Transaction-level, because a session lock
 * would stay with whichever server connection PgBouncer lent the runner.
 */
const MIGRATIONS_LOCK_KEY = 0x51_54_4e_44; // "QTND"

const SCHEMA_NAME = /^[a-z_][a-z0-9_]*$/;

/*
 * Runs of this process go one after another as well: the embedded PGlite is a
 * single session for all connections, where an advisory lock excludes nothing.
 */
let previousRun: Promise<unknown> = Promise.resolve();

/**
 * Creates the context's schema if needed and applies its pending migrations
 * in ONE transaction that first takes the advisory lock: the schema, the
 * migrations table and the migrations commit together or not at all, and a
 * replica that waited for the lock finds them all. (So a migration cannot
 * opt out of transactions: no `CREATE INDEX CONCURRENTLY` here.) Returns the
 * names of the migrations applied by this call.
 */
export function runMigrations(
  options: PostgresConnectionOptions,
): Promise<string[]> {
  const run = previousRun.then(() => migrate(options));
  previousRun = run.catch(() => undefined);
  return run;
}

/** The same options without a read replica: migrations only write. */
function primaryOnly(
  options: PostgresConnectionOptions,
): PostgresConnectionOptions {
  if (!options.replication) return options;
  const { replication, ...rest } = options;
  return { ...rest, ...replication.master };
}

async function migrate(options: PostgresConnectionOptions): Promise<string[]> {
  const schema = options.schema;
  if (!schema || !SCHEMA_NAME.test(schema)) {
    throw new Error(`Refusing to migrate an unnamed or odd schema: ${schema}`);
  }
  const dataSource = new DataSource({
    ...primaryOnly(options),
    name: `${options.name ?? schema}:migrate`,
    poolSize: 1,
  });
  await dataSource.initialize();
  const runner = dataSource.createQueryRunner();
  try {
    await runner.startTransaction();
    try {
      await runner.query('SELECT pg_advisory_xact_lock($1)', [
        MIGRATIONS_LOCK_KEY,
      ]);
      await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      // The executor finds the transaction open and runs inside it.
      const executor = new MigrationExecutor(dataSource, runner);
      executor.transaction = 'each';
      const applied = await executor.executePendingMigrations();
      await runner.commitTransaction();
      return applied.map((migration) => migration.name);
    } catch (error) {
      await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    }
  } finally {
    await runner.release();
    await dataSource.destroy();
  }
}

/** Names of the migrations a live DataSource knows but the database lacks. */
export async function pendingMigrations(
  dataSource: DataSource,
): Promise<string[]> {
  const pending = await new MigrationExecutor(
    dataSource,
  ).getPendingMigrations();
  return pending.map((migration) => migration.name);
}
