/**
 * `npm run migration:generate -- <context> <MigrationName>`
 *
 * Applies the context's existing migrations to a scratch database (a throwaway
 * database on DATABASE_URL's server, else an in-memory PGlite), compares the
 * result with the context's entities the way `typeorm migration:generate` does,
 * and writes the difference as a new migration file. Add it to the context's
 * `migrations/index.ts`; the context's `migrations.int-spec.ts` fails until
 * entities and migrations agree.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { runMigrations, startEmbeddedPostgres } from '@quitanda/database';
import { Client } from 'pg';
import { DataSource } from 'typeorm';

import { MIGRATION_TARGETS } from './migration-targets';

interface Scratch {
  url: string;
  close(): Promise<void>;
}

async function scratchDatabase(): Promise<Scratch> {
  const server = process.env['DATABASE_URL'];
  if (!server) return startEmbeddedPostgres({});
  const name = `qtest_migration_${randomBytes(4).toString('hex')}`;
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

function quote(sql: string): string {
  return (
    '`' +
    sql.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${') +
    '`'
  );
}

async function main(): Promise<void> {
  const [context, name] = process.argv.slice(2);
  const target = context ? MIGRATION_TARGETS[context] : undefined;
  if (!target || !name || !/^[A-Z][A-Za-z0-9]+$/.test(name)) {
    console.error(
      `usage: npm run migration:generate -- <${Object.keys(MIGRATION_TARGETS).join('|')}> <PascalCaseName>`,
    );
    process.exit(2);
  }
  const scratch = await scratchDatabase();
  try {
    await runMigrations(target.options(scratch.url));
    const dataSource = new DataSource(target.options(scratch.url));
    await dataSource.initialize();
    const sql = await dataSource.driver.createSchemaBuilder().log();
    await dataSource.destroy();
    if (sql.upQueries.length === 0) {
      console.log(`No changes: the ${context} entities match its migrations.`);
      return;
    }
    const timestamp = Date.now();
    const up = sql.upQueries
      .map(
        (q) =>
          `    await queryRunner.query(${quote(q.query)}${q.parameters?.length ? `, ${JSON.stringify(q.parameters)}` : ''});`,
      )
      .join('\n');
    const down = [...sql.downQueries]
      .reverse()
      .map(
        (q) =>
          `    await queryRunner.query(${quote(q.query)}${q.parameters?.length ? `, ${JSON.stringify(q.parameters)}` : ''});`,
      )
      .join('\n');
    const file = join(target.directory, `${timestamp}-${name}.ts`);
    writeFileSync(
      file,
      `import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ${name}${timestamp} implements MigrationInterface {
  name = '${name}${timestamp}';

  async up(queryRunner: QueryRunner): Promise<void> {
${up}
  }

  async down(queryRunner: QueryRunner): Promise<void> {
${down}
  }
}
`,
    );
    console.log(
      `Wrote ${file}; add ${name}${timestamp} to ${target.directory}/index.ts.`,
    );
  } finally {
    await scratch.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
