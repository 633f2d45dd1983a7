import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

import { parse } from 'pg-connection-string';
import { withClient } from '@quitanda/database';

import type { GatewayDatabase } from '../app/database/gateway-database';
import { buildInfo } from '../app/version/build-info';

/**
 * Every context's schema, served by this process or not. The catalog loads
 * every context: only now, not for each CLI command that imports this file.
 */
async function contextSchemas(): Promise<string[]> {
  const { CONTEXT_CATALOG } = await import('../app/contexts/context-catalog');
  return CONTEXT_CATALOG.map(
    (entry) => entry.dataSourceOptions('postgres://localhost/x', 1).schema,
  ).filter((schema): schema is string => typeof schema === 'string');
}

/**
 * Plain SQL that any client can replay (INSERTs, not COPY: restore runs it
 * through `pg`, and psql takes it too), without owners or grants (the
 * target's roles differ).
 */
function dumpArguments(schemas: readonly string[]): string[] {
  return [
    ...schemas.map((schema) => `--schema=${schema}`),
    '--no-owner',
    '--no-privileges',
    '--inserts',
    '--rows-per-insert=1000',
  ];
}

class BackupError extends Error {}

/**
 * Writes a PostgreSQL dump of the contexts' schemas to `file` (owner-only):
 * the embedded database through PGlite's own pg_dump (by the running
 * gateway when there is one, without stopping it), a server through the
 * machine's pg_dump when it is at least the server's version (pg_dump
 * refuses newer servers). Returns a one-line description.
 */
export async function backup(
  database: GatewayDatabase,
  file: string,
): Promise<string> {
  const schemas = await contextSchemas();
  let dump: string;
  if (database.kind === 'embedded') {
    if (!database.pgDump)
      throw new BackupError('The embedded database cannot be dumped here.');
    dump = await database.pgDump(dumpArguments(schemas));
  } else {
    dump = await serverDump(database.url, dumpArguments(schemas));
  }
  const { version, commit } = buildInfo();
  const header =
    `-- Quitanda ${version} (commit ${commit}) backup of schemas ${schemas.join(', ')}\n` +
    `-- Restore: npm run cli -- restore <this file> (or psql -v ON_ERROR_STOP=1 -f <this file>)\n`;
  await writeOwnerOnly(file, header + portable(dump));
  return `Backed up ${schemas.join(', ')} from the ${database.kind === 'embedded' ? 'embedded database' : 'server'} to ${file}.`;
}

/**
 * What PostgreSQL 15 refuses in a newer pg_dump's output: the
 * `transaction_timeout` setting (PostgreSQL 17+) and psql's `\restrict`
 * guards (pg_dump 17.6+), both in the preamble or at the very end, never
 * among the data.
 */
export function portable(dump: string): string {
  const lines = dump.split('\n');
  const preamble = lines.findIndex((line) => line.startsWith('CREATE '));
  const kept = lines.filter((line, index) => {
    const edge = index < preamble || index >= lines.length - 4;
    return !(
      edge &&
      (line === 'SET transaction_timeout = 0;' ||
        /^\\(un)?restrict /.test(line))
    );
  });
  return kept.join('\n');
}

/**
 * The dump holds password hashes and signing keys. `writeFile`'s mode only
 * applies to a file it creates (an existing 0644 file stays 0644), so the
 * bytes go to a new 0600 file beside the target, renamed over it.
 */
async function writeOwnerOnly(file: string, text: string): Promise<void> {
  const temporary = join(
    dirname(file),
    `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    await writeFile(temporary, text, { mode: 0o600, flag: 'wx' });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

async function serverDump(url: string, args: string[]): Promise<string> {
  const pgDump = process.env['PG_DUMP'] ?? 'pg_dump';
  const serverMajor = await withClient(url, async (client) =>
    Math.floor(
      Number(
        (
          await client.query<{ v: string }>(
            "SELECT current_setting('server_version_num') AS v",
          )
        ).rows[0]?.v,
      ) / 10000,
    ),
  );
  const versionText = await run(pgDump, ['--version'], process.env).catch(
    () => {
      throw new BackupError(
        `pg_dump was not found (PostgreSQL ${serverMajor} client tools, or set PG_DUMP to its path).`,
      );
    },
  );
  const dumpMajor = Number(/(\d+)(\.\d+)?/.exec(versionText)?.[1]);
  if (!(dumpMajor >= serverMajor))
    throw new BackupError(
      `${versionText.trim()} cannot dump PostgreSQL ${serverMajor}: install pg_dump ${serverMajor} or newer (or set PG_DUMP to its path).`,
    );
  // The connection goes through the environment, never the command line
  // (where `ps` would show the password).
  const parsed = parse(url);
  const env: NodeJS.ProcessEnv = { ...process.env };
  const set = (name: string, value: string | null | undefined) => {
    if (value) env[name] = value;
  };
  set('PGHOST', parsed.host);
  set('PGPORT', parsed.port);
  set('PGUSER', parsed.user && decodeURIComponent(parsed.user));
  set('PGPASSWORD', parsed.password);
  set('PGDATABASE', parsed.database);
  set('PGSSLMODE', new URL(url).searchParams.get('sslmode'));
  return run(pgDump, args, env);
}

function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new BackupError(`${command} failed: ${err.trim()}`));
    });
  });
}

/**
 * Replays a dump into the database in one transaction: the contexts' schemas
 * are created from it, so a database that already has any of them is
 * refused unless `replace` (then they are dropped first, in the same
 * transaction: a failed restore changes nothing).
 */
export async function restore(
  database: GatewayDatabase,
  file: string,
  replace: boolean,
): Promise<string> {
  if (database.attached)
    throw new BackupError(
      'The embedded database is served by a running gateway; stop it, then restore.',
    );
  const sql = await readFile(file, 'utf8');
  if (!sql.includes('-- PostgreSQL database dump'))
    throw new BackupError(`${file} is not a PostgreSQL dump (plain SQL).`);
  const schemas = await contextSchemas();
  return withClient(database.url, async (client) => {
    const present = (
      await client.query<{ nspname: string }>(
        'SELECT nspname FROM pg_namespace WHERE nspname = ANY($1) ORDER BY 1',
        [schemas],
      )
    ).rows.map((row) => row.nspname);
    if (present.length > 0 && !replace)
      throw new BackupError(
        `The database already has ${present.join(', ')}; restore replaces them only with --replace.`,
      );
    await client.query('BEGIN');
    try {
      await client.query(
        `DROP SCHEMA IF EXISTS ${schemas.map((schema) => client.escapeIdentifier(schema)).join(', ')} CASCADE`,
      );
      await client.query(portable(sql));
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
    return `Restored ${schemas.join(', ')} from ${file}.`;
  });
}
