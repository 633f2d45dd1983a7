import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
  runMigrations,
  startEmbeddedPostgres,
  withClient,
} from '@quitanda/database';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';

/**
 * Test databases, one per test file, already migrated.
 *
 * With `DATABASE_URL` set (CI), the Jest global setup migrates a template
 * database once and every test file clones it (`CREATE DATABASE ... TEMPLATE`),
 * as immich does. Without it, the global setup migrates an in-memory PGlite and
 * dumps its data directory; every test file boots its own PGlite from that
 * dump. Either way a spec only sees a `postgres://` URL.
 */
export interface TestDatabase {
  readonly url: string;
  close(): Promise<void>;
}

/** Builds a context's DataSource options for a database URL. */
export type MigrationTarget = (url: string) => PostgresConnectionOptions;

const MODE_ENV = 'QUITANDA_TEST_DB_MODE';
const TEMPLATE_ENV = 'QUITANDA_TEST_DB_TEMPLATE';

function serverUrl(): string | undefined {
  const url = process.env['DATABASE_URL'];
  if (!url) return undefined;
  const name = new URL(url).pathname.replace(/^\//, '');
  // Tests create and drop databases: never point them at a real one.
  if (!/test/i.test(name)) {
    throw new Error(
      `Refusing to run tests against database "${name}": its name must contain "test".`,
    );
  }
  return url;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

function uniqueName(prefix: string, key: string): string {
  const slug = key.replace(/[^a-z0-9]/gi, '_').toLowerCase();
  return `qtest_${prefix}_${slug}_${randomBytes(5).toString('hex')}`;
}

/** Jest global setup: migrate once, remember where the result is. */
export async function prepareTemplateDatabase(
  key: string,
  targets: readonly MigrationTarget[],
): Promise<void> {
  const server = serverUrl();
  if (server) {
    const template = uniqueName('tpl', key);
    await withClient(server, (admin) =>
      admin.query(`CREATE DATABASE "${template}"`),
    );
    const url = withDatabase(server, template);
    for (const target of targets) await runMigrations(target(url));
    process.env[MODE_ENV] = 'postgres';
    process.env[TEMPLATE_ENV] = template;
    return;
  }

  const embedded = await startEmbeddedPostgres({});
  try {
    for (const target of targets) await runMigrations(target(embedded.url));
    const dump = await embedded.dumpDataDir();
    const file = join(tmpdir(), `${uniqueName('tpl', key)}.tar`);
    await writeFile(file, Buffer.from(await dump.arrayBuffer()));
    process.env[MODE_ENV] = 'pglite';
    process.env[TEMPLATE_ENV] = file;
  } finally {
    await embedded.close();
  }
}

/** Jest global teardown. */
export async function dropTemplateDatabase(): Promise<void> {
  const template = process.env[TEMPLATE_ENV];
  if (!template) return;
  if (process.env[MODE_ENV] === 'postgres') {
    const server = serverUrl();
    if (server) {
      await withClient(server, (admin) =>
        admin.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`),
      );
    }
  } else {
    await rm(template, { force: true });
  }
}

/** A private, migrated database for one test file. */
export async function openTestDatabase(): Promise<TestDatabase> {
  const template = process.env[TEMPLATE_ENV];
  const mode = process.env[MODE_ENV];
  if (!template || !mode) {
    throw new Error(
      'No template database: add the context global setup (prepareTemplateDatabase) to this jest config.',
    );
  }

  if (mode === 'postgres') {
    const server = serverUrl();
    if (!server) throw new Error('DATABASE_URL vanished during the test run');
    const name = uniqueName('db', 'file');
    await withClient(server, (admin) =>
      admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`),
    );
    return {
      url: withDatabase(server, name),
      close: () =>
        withClient(server, async (admin) => {
          await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        }),
    };
  }

  return startPgliteChild(template);
}

const WORKSPACE_ROOT = join(__dirname, '../../../../..');

function startPgliteChild(dumpFile: string): Promise<TestDatabase> {
  const child = spawn(
    process.execPath,
    [
      '-r',
      '@swc-node/register',
      join(__dirname, 'pglite-test-server.ts'),
      dumpFile,
    ],
    {
      cwd: WORKSPACE_ROOT,
      env: {
        ...process.env,
        SWC_NODE_PROJECT: join(WORKSPACE_ROOT, 'tsconfig.base.json'),
        NODE_OPTIONS: '',
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => resolve()),
  );
  return new Promise((resolve, reject) => {
    let output = '';
    child.once('exit', (code) =>
      reject(new Error(`PGlite test server exited early (${code})`)),
    );
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const newline = output.indexOf('\n');
      if (newline < 0) return;
      const { url } = JSON.parse(output.slice(0, newline)) as { url: string };
      resolve({
        url,
        close: async () => {
          child.stdin.end();
          await exited;
        },
      });
    });
  });
}
