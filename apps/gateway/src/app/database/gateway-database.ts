import {
  dumpSocketOf,
  hasEmbeddedDatabase,
  probeEmbeddedPostgres,
  requestDump,
  runMigrations,
  startEmbeddedPostgres,
} from '@quitanda/database';

import type { GatewayConfig } from '../config/gateway-config';
import type { ContextEntry } from '../contexts/context-entry';

export interface GatewayDatabase {
  readonly url: string;
  /** `embedded` (PGlite under DATA_DIR) or `server` (DATABASE_URL). */
  readonly kind: 'embedded' | 'server';
  /**
   * PGlite's own pg_dump: run here when this process serves the embedded
   * database, else asked of the gateway that serves it.
   */
  readonly pgDump?: (args: readonly string[]) => Promise<string>;
  /** The embedded database of a gateway running in another process. */
  readonly attached?: boolean;
  close(): Promise<void>;
}

class DatabaseInUseError extends Error {
  constructor(dataDir: string) {
    super(
      `The embedded database in ${dataDir} is already served by another Quitanda process. ` +
        'Stop it, point DATA_DIR elsewhere, or set DATABASE_URL.',
    );
    this.name = 'DatabaseInUseError';
  }
}

/** An operator command pointed at a DATA_DIR without an embedded database. */
export class NoDatabaseError extends Error {
  constructor(dataDir: string) {
    super(
      `No database in ${dataDir}: DATA_DIR is the folder of the embedded database, made by the gateway's first start ` +
        '(by default .data in the directory it starts from). Set DATA_DIR to that folder, or DATABASE_URL to use a PostgreSQL server.',
    );
    this.name = 'NoDatabaseError';
  }
}

/**
 * The database the gateway talks to: `DATABASE_URL`, or the embedded PGlite
 * under `DATA_DIR`. `attach` lets an operator command (the CLI) use the
 * embedded database of a running gateway instead of refusing; `create:
 * false` refuses a DATA_DIR holding none (a mistyped one would otherwise get
 * a new, empty database).
 */
export async function openGatewayDatabase(
  config: GatewayConfig,
  options: { attach?: boolean; create?: boolean } = {},
): Promise<GatewayDatabase> {
  if (config.databaseUrl) {
    return {
      url: config.databaseUrl,
      kind: 'server',
      close: async () => undefined,
    };
  }
  const running = await probeEmbeddedPostgres(config.dataDir);
  if (running) {
    if (!options.attach) throw new DatabaseInUseError(config.dataDir);
    const dumps = dumpSocketOf(config.dataDir);
    return {
      url: running,
      kind: 'embedded',
      pgDump: (args) => requestDump(dumps, args),
      attached: true,
      close: async () => undefined,
    };
  }
  if (options.create === false && !hasEmbeddedDatabase(config.dataDir))
    throw new NoDatabaseError(config.dataDir);
  const embedded = await startEmbeddedPostgres({ dataDir: config.dataDir });
  return {
    url: embedded.url,
    kind: 'embedded',
    pgDump: (args) => embedded.pgDump(args),
    close: () => embedded.close(),
  };
}

/**
 * Which database `config` names, as a person reads it: never a password.
 */
export function databaseDescription(config: GatewayConfig): string {
  if (!config.databaseUrl) return `the embedded database in ${config.dataDir}`;
  try {
    const url = new URL(config.databaseUrl);
    return `the database at DATABASE_URL (${url.host}${url.pathname})`;
  } catch {
    return 'the database at DATABASE_URL';
  }
}

/** Applies pending migrations of `contexts`; returns their names. */
export async function migrateContexts(
  contexts: readonly ContextEntry[],
  databaseUrl: string,
): Promise<string[]> {
  const applied: string[] = [];
  for (const entry of contexts) {
    const names = await runMigrations(entry.dataSourceOptions(databaseUrl, 2));
    applied.push(...names.map((name) => `${entry.name}: ${name}`));
  }
  return applied;
}
