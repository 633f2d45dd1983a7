import {
  dumpSocketOf,
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

/**
 * The database the gateway talks to: `DATABASE_URL`, or the embedded PGlite
 * under `DATA_DIR`. `attach` lets an operator command (the CLI) use the
 * embedded database of a running gateway instead of refusing.
 */
export async function openGatewayDatabase(
  config: GatewayConfig,
  options: { attach?: boolean } = {},
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
  const embedded = await startEmbeddedPostgres({ dataDir: config.dataDir });
  return {
    url: embedded.url,
    kind: 'embedded',
    pgDump: (args) => embedded.pgDump(args),
    close: () => embedded.close(),
  };
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
