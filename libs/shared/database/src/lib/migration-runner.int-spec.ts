import { randomBytes } from 'node:crypto';

import { Client } from 'pg';
import { DataSource } from 'typeorm';
import type { MigrationInterface, QueryRunner } from 'typeorm';

import { contextDataSourceOptions } from './context-data-source-options';
import { startEmbeddedPostgres } from './embedded-postgres';
import { pendingMigrations, runMigrations } from './migration-runner';

class CreateWidgets1700000000000 implements MigrationInterface {
  name = 'CreateWidgets1700000000000';
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "spec_ctx"."widgets" (id int primary key)',
    );
    // Slow enough that concurrent runners overlap.
    await queryRunner.query('SELECT pg_sleep(0.2)');
  }
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "spec_ctx"."widgets"');
  }
}

/** The database lib's own scratch database (it cannot use the testing lib). */
async function scratch(): Promise<{ url: string; close(): Promise<void> }> {
  const server = process.env['DATABASE_URL'];
  if (!server) return startEmbeddedPostgres({});
  const name = `qtest_dblib_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async close() {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

describe('runMigrations', () => {
  it('creates the schema and applies each migration once, even from concurrent runners', async () => {
    const db = await scratch();
    const options = contextDataSourceOptions({
      name: 'spec',
      schema: 'spec_ctx',
      url: db.url,
      entities: [],
      migrations: [CreateWidgets1700000000000],
    });
    try {
      const runs = await Promise.all([
        runMigrations(options),
        runMigrations(options),
        runMigrations(options),
      ]);
      expect(runs.flat()).toEqual(['CreateWidgets1700000000000']);

      const dataSource = new DataSource({ ...options, name: 'spec:check' });
      await dataSource.initialize();
      await expect(pendingMigrations(dataSource)).resolves.toEqual([]);
      const rows = await dataSource.query(
        'SELECT name FROM spec_ctx.migrations',
      );
      expect(rows).toEqual([{ name: 'CreateWidgets1700000000000' }]);
      await dataSource.destroy();
    } finally {
      await db.close();
    }
  });

  it('refuses an odd schema name rather than quoting it into SQL', async () => {
    await expect(
      runMigrations(
        contextDataSourceOptions({
          name: 'bad',
          schema: 'x"; DROP SCHEMA public; --',
          url: 'postgres://nobody@127.0.0.1:1/none',
          entities: [],
          migrations: [],
        }),
      ),
    ).rejects.toThrow(/odd schema/);
  });
});
