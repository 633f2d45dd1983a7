import { DataSource, MigrationExecutor } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';

/**
 * Session-level advisory lock every Quitanda process takes before migrating,
 * so replicas booting together migrate one at a time and the others find
 * nothing left to do.
 */
export const MIGRATIONS_LOCK_KEY = 0x51_54_4e_44; // "QTND"

const SCHEMA_NAME = /^[a-z_][a-z0-9_]*$/;

/*
 * Runs of this process go one after another as well: the embedded PGlite is a
 * single session for all connections, where an advisory lock excludes nothing.
 */
let previousRun: Promise<unknown> = Promise.resolve();

/**
 * Creates the context's schema if needed and applies its pending migrations,
 * each in its own transaction, under the advisory lock. Returns the names of
 * the migrations applied by this call.
 */
export function runMigrations(
  options: PostgresConnectionOptions,
): Promise<string[]> {
  const run = previousRun.then(() => migrate(options));
  previousRun = run.catch(() => undefined);
  return run;
}

async function migrate(options: PostgresConnectionOptions): Promise<string[]> {
  const schema = options.schema;
  if (!schema || !SCHEMA_NAME.test(schema)) {
    throw new Error(`Refusing to migrate an unnamed or odd schema: ${schema}`);
  }
  const dataSource = new DataSource({
    ...options,
    name: `${options.name ?? schema}:migrate`,
    poolSize: 2,
  });
  await dataSource.initialize();
  const lockRunner = dataSource.createQueryRunner();
  try {
    await lockRunner.query('SELECT pg_advisory_lock($1)', [
      MIGRATIONS_LOCK_KEY,
    ]);
    try {
      await lockRunner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((migration) => migration.name);
    } finally {
      await lockRunner.query('SELECT pg_advisory_unlock($1)', [
        MIGRATIONS_LOCK_KEY,
      ]);
    }
  } finally {
    await lockRunner.release();
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
