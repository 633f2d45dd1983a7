import { join } from 'node:path';

import type { Target } from './types';

const ROOT = join(__dirname, '../..');

/**
 * The node flags `npm start` and the Dockerfile give the gateway: none.
 * A smaller heap cap (`--max-old-space-size=1024`, 1536 or 2000, which also
 * make V8 grow the old generation by 1.6-2x after a collection instead of
 * up to 4x) took peak RSS from 278 to 172-189 MB but cost 7-15% of the
 * throughput and tripled p99 (docs/performance.md, "Heap flags A/B").
 */
export const GATEWAY_NODE_FLAGS: readonly string[] = [];

/** The built gateway as an operator runs it (`npm start`), on the benchmark database. */
export function quitanda(
  databaseUrl: string,
  env: Record<string, string> = {},
): Target {
  return {
    name: 'quitanda',
    command: (port) => ({
      file: process.execPath,
      args: [
        ...GATEWAY_NODE_FLAGS,
        join(ROOT, 'dist/apps/gateway/src/main.js'),
      ],
      env: {
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        HOST: '127.0.0.1',
        MIGRATIONS: 'off',
        LOG_LEVEL: 'info',
        ...env,
      },
    }),
  };
}

/** A bare node:http + pg server from `bench/baselines/`. */
export function baseline(
  name: string,
  file: string,
  databaseUrl: string,
): Target {
  return {
    name,
    command: (port) => ({
      file: process.execPath,
      args: [join(ROOT, 'bench/baselines', file)],
      env: { DATABASE_URL: databaseUrl, PORT: String(port) },
    }),
  };
}
