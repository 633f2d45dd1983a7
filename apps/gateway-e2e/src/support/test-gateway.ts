import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadConfig, startGateway } from '@quitanda/gateway';
import type { Gateway } from '@quitanda/gateway';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

export interface TestGateway {
  readonly url: string;
  readonly gateway: Gateway;
  readonly databaseUrl: string;
  /** DATA_DIR of this gateway (first-boot credentials land here). */
  readonly dataDir: string;
  close(): Promise<void>;
}

/** What a test gateway runs with: a free port, an already migrated database, no log. */
export function testGatewayEnv(
  databaseUrl: string,
  dataDir: string,
): Record<string, string> {
  return {
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    MIGRATIONS: 'off',
    LOG_LEVEL: 'silent',
    DB_POOL_SIZE: '4',
  };
}

/**
 * The real gateway, listening on a free port, over this test file's own
 * migrated database. `env` is what an operator would set; as a function it
 * gets the database URL first (to put a proxy in front of it, say).
 */
export async function startTestGateway(
  env:
    | Record<string, string>
    | ((databaseUrl: string) => Promise<Record<string, string>>) = {},
): Promise<TestGateway> {
  const database: TestDatabase = await openTestDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), 'quitanda-e2e-'));
  try {
    const gateway = await startGateway(
      loadConfig({
        ...testGatewayEnv(database.url, dataDir),
        ...(typeof env === 'function' ? await env(database.url) : env),
      }),
    );
    return {
      url: gateway.url,
      gateway,
      databaseUrl: database.url,
      dataDir,
      async close() {
        await gateway.close();
        await database.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
