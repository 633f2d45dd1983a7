import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startPrivatePostgres } from './private-postgres';
import type { PrivatePostgres } from './private-postgres';

/** A scenario's own PostgreSQL cluster and database, and a data directory. */
export interface FaultCluster {
  readonly pg: PrivatePostgres;
  /** The scenario's database, for the gateway's `DATABASE_URL`. */
  readonly databaseUrl: string;
  /** For the gateway's `DATA_DIR`. */
  readonly dataDir: string;
  /** Removes the cluster and the directory (stop the gateway first). */
  destroy(): Promise<void>;
}

export async function startFaultCluster(
  database: string,
): Promise<FaultCluster> {
  const pg = await startPrivatePostgres();
  await pg.createDatabase(database);
  const dataDir = await mkdtemp(join(tmpdir(), 'quitanda-faults-'));
  return {
    pg,
    databaseUrl: pg.url(database),
    dataDir,
    async destroy() {
      await pg.destroy();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
