import { DataSource } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';

/**
 * The SQL TypeORM would run to make a migrated database match the entities:
 * what `typeorm migration:generate --check` looks at. Empty when the
 * migrations are complete.
 */
export async function schemaDrift(
  options: PostgresConnectionOptions,
): Promise<string[]> {
  const dataSource = new DataSource({
    ...options,
    name: `${options.name}:drift`,
  });
  await dataSource.initialize();
  try {
    const sql = await dataSource.driver.createSchemaBuilder().log();
    return sql.upQueries.map((query) => query.query);
  } finally {
    await dataSource.destroy();
  }
}
