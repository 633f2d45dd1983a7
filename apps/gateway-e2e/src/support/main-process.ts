import { spawn } from 'node:child_process';
import type { ChildProcess, StdioOptions } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../../..');

/** The build's entry point (`npm run build`), as the Dockerfile runs it. */
export const BUILT_MAIN = 'dist/apps/gateway/src/main.js';

/**
 * `apps/gateway/src/main.ts` in its own process, as `npm start` runs it,
 * compiled on the fly (or `built`: the build's output, whose memory is what
 * production sees); only PATH is inherited, the rest is `env`.
 */
export function spawnMain(
  env: Record<string, string>,
  stdio: StdioOptions,
  built = false,
  cwd = ROOT,
): ChildProcess {
  return spawn(
    process.execPath,
    built
      ? [join(ROOT, BUILT_MAIN)]
      : [
          '-r',
          require.resolve('@swc-node/register'),
          join(ROOT, 'apps/gateway/src/main.ts'),
        ],
    {
      cwd,
      env: {
        PATH: process.env['PATH'] ?? '',
        SWC_NODE_PROJECT: join(ROOT, 'tsconfig.base.json'),
        HOST: '127.0.0.1',
        PORT: '0',
        ...env,
      },
      stdio,
    },
  );
}
