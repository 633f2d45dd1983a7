import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { freePort, withClient } from '@quitanda/testing';

const run = promisify(execFile);

/** Debian's newest PostgreSQL binaries (initdb and pg_ctl are not on PATH there). */
function postgresBin(): string {
  const configured = process.env['QUITANDA_PG_BIN'];
  if (configured) return configured;
  const versions = readdirSync('/usr/lib/postgresql')
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  if (!versions[0]) throw new Error('No PostgreSQL in /usr/lib/postgresql');
  return `/usr/lib/postgresql/${versions[0]}/bin`;
}
const PG_BIN = postgresBin();
const PGBOUNCER = process.env['QUITANDA_PGBOUNCER'] ?? '/usr/sbin/pgbouncer';
/** Both refuse to run as root: as root, they run as this user. */
const SERVER_USER = 'postgres';
export const DATABASE = 'quitanda';

export interface ScaleClusterOptions {
  /** PgBouncer's server connections per (database, user) pair. */
  readonly poolSize: number;
}

/**
 * PostgreSQL's own scale-out path, as real processes in a temp dir: a
 * primary, a streaming replica made with `pg_basebackup -R`, and PgBouncer
 * in transaction pooling mode in front of the primary. Each listens on its
 * own free port on 127.0.0.1.
 */
export interface ScaleCluster {
  readonly dir: string;
  readonly poolSize: number;
  /** Straight to the primary (test setup and checks only). */
  readonly primaryUrl: string;
  readonly replicaUrl: string;
  /** Through PgBouncer: what the gateways use. */
  readonly bouncerUrl: string;
  /** `SHOW ...` on PgBouncer's admin console. */
  admin(command: string): Promise<Array<Record<string, unknown>>>;
  /** The replica has replayed everything the primary had written when called. */
  replicaCaughtUp(): Promise<void>;
  /** Stops the replica's replay (it still answers, with what it had). */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Stops the replica, as an outage would. */
  stopReplica(): Promise<void>;
  stop(): Promise<void>;
}

async function asServerUser(
  command: string,
  args: readonly string[],
): Promise<string> {
  const root = process.getuid?.() === 0;
  const { stdout } = await run(
    root ? 'runuser' : command,
    root ? ['-u', SERVER_USER, '--', command, ...args] : [...args],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  return stdout;
}

async function serverUserIds(): Promise<{ uid: number; gid: number }> {
  const { stdout: uid } = await run('id', ['-u', SERVER_USER]);
  const { stdout: gid } = await run('id', ['-g', SERVER_USER]);
  return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
}

/** Polls `check` until it holds (the processes report no events we could wait on). */
export async function until(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`Timed out waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const SERVER_SETTINGS = (port: number, dir: string) => `
listen_addresses = '127.0.0.1'
port = ${port}
unix_socket_directories = '${dir}'
max_connections = 100
wal_level = replica
max_wal_senders = 4
hot_standby = on
shared_buffers = 64MB
# A throwaway cluster: durability costs disk time the shared machine lacks.
fsync = off
full_page_writes = off
log_min_messages = warning
`;

export async function startScaleCluster(
  options: ScaleClusterOptions,
): Promise<ScaleCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'quitanda-scale-'));
  if (process.getuid?.() === 0) {
    const { uid, gid } = await serverUserIds();
    await chown(dir, uid, gid);
  }
  const primaryDir = join(dir, 'primary');
  const replicaDir = join(dir, 'replica');
  const [primaryPort, replicaPort, bouncerPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/${DATABASE}`;
  const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/${DATABASE}`;
  const bouncerUrl = `postgres://postgres@127.0.0.1:${bouncerPort}/${DATABASE}`;
  const started: Array<() => Promise<unknown>> = [];
  const stop = async () => {
    for (const undo of started.reverse()) await undo().catch(() => undefined);
    // QUITANDA_SCALE_KEEP=1 keeps the servers' logs to read after a failure.
    if (process.env['QUITANDA_SCALE_KEEP'] !== '1')
      await rm(dir, { recursive: true, force: true });
  };
  const pgCtl = (data: string, ...args: string[]) =>
    asServerUser(join(PG_BIN, 'pg_ctl'), ['-D', data, ...args]);
  try {
    await asServerUser(join(PG_BIN, 'initdb'), [
      '-D',
      primaryDir,
      '-U',
      'postgres',
      '--auth=trust',
      '--no-sync',
      '-E',
      'UTF8',
    ]);
    await writeFile(
      join(primaryDir, 'postgresql.auto.conf'),
      SERVER_SETTINGS(primaryPort, dir),
    );
    await pgCtl(primaryDir, '-w', '-l', join(dir, 'primary.log'), 'start');
    started.push(() => pgCtl(primaryDir, '-m', 'immediate', 'stop'));
    await withClient(
      `postgres://postgres@127.0.0.1:${primaryPort}/postgres`,
      (client) => client.query(`CREATE DATABASE ${DATABASE}`),
    );

    await asServerUser(join(PG_BIN, 'pg_basebackup'), [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      replicaDir,
      '-R',
      '-X',
      'stream',
      // An immediate checkpoint, not a spread one (that takes minutes).
      '--checkpoint=fast',
      '--no-sync',
    ]);
    // -R wrote the primary's address; the settings are the primary's copy.
    const auto = await readFile(
      join(replicaDir, 'postgresql.auto.conf'),
      'utf8',
    );
    await writeFile(
      join(replicaDir, 'postgresql.auto.conf'),
      auto.replace(/^port = \d+$/m, `port = ${replicaPort}`),
    );
    await pgCtl(replicaDir, '-w', '-l', join(dir, 'replica.log'), 'start');
    started.push(() => pgCtl(replicaDir, '-m', 'immediate', 'stop'));

    await writeFile(join(dir, 'userlist.txt'), '"postgres" ""\n');
    await writeFile(
      join(dir, 'pgbouncer.ini'),
      `[databases]
${DATABASE} = host=127.0.0.1 port=${primaryPort} dbname=${DATABASE}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${bouncerPort}
unix_socket_dir =
auth_type = trust
auth_file = ${join(dir, 'userlist.txt')}
admin_users = postgres
pool_mode = transaction
default_pool_size = ${options.poolSize}
max_client_conn = 1000
logfile = ${join(dir, 'pgbouncer.log')}
pidfile = ${join(dir, 'pgbouncer.pid')}
`,
    );
    await asServerUser(PGBOUNCER, ['-d', join(dir, 'pgbouncer.ini')]);
    started.push(async () => {
      const pid = Number(await readFile(join(dir, 'pgbouncer.pid'), 'utf8'));
      process.kill(pid, 'SIGTERM');
      await until('PgBouncer to exit', async () => {
        try {
          process.kill(pid, 0);
          return false;
        } catch {
          return true;
        }
      });
    });
    const adminUrl = `postgres://postgres@127.0.0.1:${bouncerPort}/pgbouncer`;
    await until('PgBouncer to accept connections', () =>
      withClient(adminUrl, async () => true),
    );
    await until('the replica to stream', () =>
      withClient(primaryUrl, async (client) => {
        const rows = await client.query(
          `SELECT 1 FROM pg_stat_replication WHERE state = 'streaming'`,
        );
        return rows.rowCount === 1;
      }),
    );

    return {
      dir,
      poolSize: options.poolSize,
      primaryUrl,
      replicaUrl,
      bouncerUrl,
      admin: (command) =>
        withClient(adminUrl, async (client) => {
          // The admin console speaks the simple protocol only: no parameters.
          if (!/^SHOW [A-Z_]+$/.test(command))
            throw new Error(`not an admin command: ${command}`);
          return (await client.query(command)).rows;
        }),
      async pauseReplay() {
        await withClient(replicaUrl, (client) =>
          client.query('SELECT pg_wal_replay_pause()'),
        );
        await until('the replica to pause its replay', () =>
          withClient(replicaUrl, async (client) => {
            const rows = await client.query<{ state: string }>(
              'SELECT pg_get_wal_replay_pause_state() AS state',
            );
            return rows.rows[0]?.state === 'paused';
          }),
        );
      },
      async resumeReplay() {
        await withClient(replicaUrl, (client) =>
          client.query('SELECT pg_wal_replay_resume()'),
        );
      },
      async stopReplica() {
        await pgCtl(replicaDir, '-m', 'fast', 'stop');
      },
      async replicaCaughtUp() {
        const lsn = await withClient(primaryUrl, async (client) => {
          const rows = await client.query<{ lsn: string }>(
            'SELECT pg_current_wal_lsn()::text AS lsn',
          );
          return rows.rows[0]?.lsn;
        });
        await until('the replica to replay the primary', () =>
          withClient(replicaUrl, async (client) => {
            const rows = await client.query<{ behind: boolean }>(
              'SELECT pg_last_wal_replay_lsn() < $1::pg_lsn AS behind',
              [lsn],
            );
            return rows.rows[0]?.behind === false;
          }),
        );
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
