import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';

import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

import { serveDumps } from './embedded-dump-socket';
import { pgDumpWhileServing } from './pglite-online-dump';

export interface EmbeddedPostgres {
  /** A `postgres://` URL that `pg` connects to, like any other server. */
  readonly url: string;
  /** The whole data directory as a tarball, to clone it elsewhere (tests). */
  dumpDataDir(): Promise<Blob>;
  /**
   * `pg_dump` with these arguments, as plain SQL: PGlite's own pg_dump
   * (WebAssembly, same major version), since a machine's older pg_dump
   * refuses a newer server.
   */
  pgDump(args: readonly string[]): Promise<string>;
  close(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /**
   * Directory holding the database files; `undefined` keeps everything in
   * memory (tests).
   */
  readonly dataDir?: string;
  /** A data-directory dump (`PGlite.dumpDataDir`) to start from (tests). */
  readonly loadDataDir?: Blob;
  /** Most simultaneous client connections the multiplexer accepts. */
  readonly maxConnections?: number;
}

// Unix socket paths are limited to ~107 bytes; fall back to loopback TCP when
// the data directory is too deep for one.
const MAX_SOCKET_PATH = 100;

const DUMP_SOCKET = '.s.quitanda-dump';

/** The PostgreSQL data directory inside a DATA_DIR. */
const PGDATA = 'pglite';

/** Where a running gateway answers backup requests for `dataDir`. */
export function dumpSocketOf(dataDir: string): string {
  return join(socketDirOf(dataDir), DUMP_SOCKET);
}

function socketDirOf(dataDir: string): string {
  return join(dataDir, 'run');
}

/**
 * Whether `dataDir` holds an embedded database (a PostgreSQL cluster's
 * PG_VERSION, written when PGlite creates one); nothing is created.
 */
export function hasEmbeddedDatabase(dataDir: string): boolean {
  return existsSync(join(dataDir, PGDATA, 'PG_VERSION'));
}

/** The URL a gateway serving the embedded database of `dataDir` answers on. */
export function embeddedDatabaseUrl(dataDir: string): string {
  return socketUrl(socketDirOf(dataDir));
}

function socketUrl(socketDir: string): string {
  return `postgres://postgres@localhost:5432/postgres?host=${encodeURIComponent(socketDir)}`;
}

/**
 * Directories 0700 and files 0600 from `root` down. PGlite unpacks its
 * initial cluster with mode 0666 whatever the umask (PostgreSQL itself
 * creates later files 0600), and the cluster holds password hashes and
 * signing keys. Run on every start, so older data directories are mended.
 */
async function restrictToOwner(root: string): Promise<void> {
  await chmod(root, 0o700);
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  await Promise.all(
    entries.map((entry) => {
      const path = join(entry.parentPath, entry.name);
      if (entry.isDirectory()) return chmod(path, 0o700);
      if (entry.isFile()) return chmod(path, 0o600);
      return undefined;
    }),
  );
}

/**
 * The URL of an embedded database another process is already serving from
 * `dataDir`, if any. PGlite has no locking of its own: two processes opening
 * one data directory would corrupt it, so the socket doubles as the lock.
 */
export function probeEmbeddedPostgres(
  dataDir: string,
): Promise<string | undefined> {
  const socketDir = socketDirOf(dataDir);
  const path = join(socketDir, '.s.PGSQL.5432');
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(socketUrl(socketDir));
    });
    socket.once('error', () => resolve(undefined));
  });
}

/**
 * PGlite (PostgreSQL compiled to WebAssembly) served over the PostgreSQL wire
 * protocol, so the application talks to it through `pg` exactly as it talks
 * to a real server and no code path branches on which one is behind the URL.
 *
 * PGlite runs one query at a time; pglite-socket's multiplexer queues the
 * statements of every connection and keeps an open transaction's connection
 * in front, so several pools can share it without deadlock as long as no code
 * waits on a second connection while holding a transaction open.
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgres> {
  let db: PGlite;
  if (options.dataDir) {
    const pgdata = join(options.dataDir, PGDATA);
    await mkdir(pgdata, { recursive: true, mode: 0o700 });
    // DATA_DIR holds the credentials file and the socket directory too. One
    // the process does not own (a mount point) keeps its mode: what is in
    // it is owner-only all the same.
    await chmod(options.dataDir, 0o700).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EPERM') throw error;
      },
    );
    db = await PGlite.create({ dataDir: pgdata });
    await restrictToOwner(pgdata);
  } else {
    db = await PGlite.create({ loadDataDir: options.loadDataDir });
  }

  const socketDir = options.dataDir ? socketDirOf(options.dataDir) : undefined;
  const socketPath = socketDir ? join(socketDir, '.s.PGSQL.5432') : undefined;
  const useSocket =
    socketPath !== undefined && socketPath.length <= MAX_SOCKET_PATH;
  if (useSocket && socketDir) {
    // Only the owner may connect: PGlite trusts every client.
    await mkdir(socketDir, { recursive: true, mode: 0o700 });
    // A stale socket file from a killed process would make listen() fail.
    await rm(socketPath, { force: true });
  }
  const server = new PGLiteSocketServer({
    db,
    ...(useSocket ? { path: socketPath } : { host: '127.0.0.1', port: 0 }),
    maxConnections: options.maxConnections ?? 64,
  });
  await server.start();

  // Backups of this running database for the CLI (owner-only directory).
  const dumps =
    useSocket && socketDir
      ? await serveDumps(join(socketDir, DUMP_SOCKET), (args) =>
          pgDumpWhileServing(db, args),
        )
      : undefined;

  let url: string;
  if (useSocket && socketDir) {
    url = socketUrl(socketDir);
  } else {
    const address = server.getServerConn();
    url = `postgres://postgres@${address}/postgres`;
  }

  return {
    url,
    dumpDataDir: () => db.dumpDataDir('none'),
    pgDump: (args) => pgDumpWhileServing(db, args),
    async close() {
      await dumps?.close();
      await server.stop();
      await db.close();
    },
  };
}
