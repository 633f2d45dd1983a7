import { join } from 'node:path';

import type { Target } from './types';

const ROOT = join(__dirname, '../..');

/**
 * The node flags `npm start` and the Dockerfile give the gateway: none. Its
 * primary gives each worker the heap policy itself (`heap-policy.ts`; why
 * in docs/reliability.md, "Memory").
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
