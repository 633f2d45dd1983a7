import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { Client } from 'pg';
import type { QueryResultRow } from 'pg';

import { freePort } from '@quitanda/testing';

const run = promisify(execFile);

/**
 * Where initdb and pg_ctl are: PG_BIN, else Debian's newest
 * /usr/lib/postgresql/<version>/bin (not on PATH there), else PATH.
 */
function postgresBin(): string {
  const configured = process.env['PG_BIN'];
  if (configured) return configured;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return versions[0] ? join(root, versions[0], 'bin') : '';
}

const BIN = postgresBin();
const tool = (name: string) => (BIN ? join(BIN, name) : name);

/**
 * PostgreSQL refuses to run as root (CI runs as root): then the cluster's
 * tools run as the `postgres` account, which owns its directory.
 */
const AS_ROOT = process.getuid?.() === 0;

function asOwner(command: string, args: string[]): [string, string[]] {
  return AS_ROOT
    ? ['runuser', ['-u', 'postgres', '--', command, ...args]]
    : [command, args];
}

async function ownerIds(): Promise<[number, number]> {
  const { stdout } = await run('id', ['postgres']);
  const uid = /uid=(\d+)/.exec(stdout)?.[1];
  const gid = /gid=(\d+)/.exec(stdout)?.[1];
  return [Number(uid), Number(gid)];
}

/**
 * A PostgreSQL cluster of the test's own (initdb in a temp dir, its own
 * port), so faults can be injected into it: stopped, or stalled with
 * SIGSTOP. Never the machine's shared server.
 */
export interface PrivatePostgres {
  readonly port: number;
  /** URL of database `name` (created by `createDatabase`). */
  url(name: string): string;
  createDatabase(name: string): Promise<void>;
  /** Runs SQL in database `name` (checks of what was stored). */
  query<T extends QueryResultRow>(
    name: string,
    text: string,
    values?: unknown[],
  ): Promise<T[]>;
  /** Every process of the cluster frozen: connections accepted, nothing answered. */
  stall(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

async function postmasterPid(dataDir: string): Promise<number> {
  const text = await readFile(join(dataDir, 'postmaster.pid'), 'utf8');
  return Number(text.split('\n')[0]);
}

/** The postmaster and its children (backends, checkpointer, ...). */
async function clusterPids(dataDir: string): Promise<number[]> {
  const postmaster = await postmasterPid(dataDir);
  const { stdout } = await run('ps', [
    '-o',
    'pid=',
    '--ppid',
    String(postmaster),
  ]);
  return [
    postmaster,
    ...stdout
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((pid) => pid > 0),
  ];
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const root = await mkdtemp(join(tmpdir(), 'quitanda-faults-pg-'));
  const dataDir = join(root, 'data');
  const port = await freePort();
  if (AS_ROOT) await chown(root, ...(await ownerIds()));
  await run(
    ...asOwner(tool('initdb'), [
      '-D',
      dataDir,
      '-U',
      'postgres',
      '-A',
      'trust',
      '--no-sync',
    ]),
    { env: { ...process.env, LC_ALL: 'C' } },
  );
  const options = [
    `-p ${port}`,
    `-k ${root}`,
    "-c listen_addresses='127.0.0.1'",
    '-c fsync=off',
    '-c shared_buffers=32MB',
    '-c max_connections=200',
  ].join(' ');
  const ctl = (...args: string[]) =>
    run(...asOwner(tool('pg_ctl'), ['-D', dataDir, '-w', '-t', '30', ...args]));
  const start = async () => {
    // pg_ctl's child keeps the log file open; detach it from our pipes.
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        ...asOwner(tool('pg_ctl'), [
          '-D',
          dataDir,
          '-w',
          '-t',
          '30',
          '-o',
          options,
          '-l',
          join(root, 'log'),
          'start',
        ]),
        { stdio: 'ignore' },
      );
      child.once('error', reject);
      child.once('exit', (code) =>
        code === 0
          ? resolve()
          : reject(new Error(`pg_ctl start exited ${code}`)),
      );
    });
  };
  const signal = async (name: NodeJS.Signals) => {
    for (const pid of await clusterPids(dataDir)) process.kill(pid, name);
  };
  let stalled = false;
  await start();
  const base = `postgres://postgres@127.0.0.1:${port}`;
  const query = async <T extends QueryResultRow>(
    name: string,
    text: string,
    values: unknown[] = [],
  ): Promise<T[]> => {
    const client = new Client({ connectionString: `${base}/${name}` });
    await client.connect();
    try {
      return (await client.query<T>(text, values)).rows;
    } finally {
      await client.end();
    }
  };
  return {
    port,
    url: (name) => `${base}/${name}`,
    async createDatabase(name) {
      // Names come from the scenarios themselves, never from input.
      await query('postgres', `CREATE DATABASE "${name}"`);
    },
    query,
    async stall() {
      stalled = true;
      await signal('SIGSTOP');
    },
    async resume() {
      stalled = false;
      await signal('SIGCONT');
    },
    async stop() {
      await ctl('-m', 'fast', 'stop');
    },
    start,
    async destroy() {
      if (stalled) await signal('SIGCONT').catch(() => undefined);
      await ctl('-m', 'immediate', 'stop').catch(() => undefined);
      await rm(root, { recursive: true, force: true });
    },
  };
}
