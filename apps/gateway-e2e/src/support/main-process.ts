import { spawn } from 'node:child_process';
import type { ChildProcess, StdioOptions } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../../..');

/**
 * `apps/gateway/src/main.ts` in its own process, as `npm start` runs it but
 * compiled on the fly; only PATH is inherited, the rest is `env`.
 */
export function spawnMain(
  env: Record<string, string>,
  stdio: StdioOptions,
): ChildProcess {
  return spawn(
    process.execPath,
    ['-r', '@swc-node/register', 'apps/gateway/src/main.ts'],
    {
      cwd: ROOT,
      env: {
        PATH: process.env['PATH'] ?? '',
        SWC_NODE_PROJECT: 'tsconfig.base.json',
        HOST: '127.0.0.1',
        PORT: '0',
        ...env,
      },
      stdio,
    },
  );
}
