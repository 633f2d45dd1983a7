import { spawn } from 'node:child_process';
import type { ChildProcess, StdioOptions } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../../..');

/** The build's entry point (`npm run build`), as the Dockerfile runs it. */
export const BUILT_MAIN = 'dist/apps/gateway/src/main.js';

/**
 * The command line of `apps/gateway/src/main.ts` as `npm start` runs it,
 * compiled on the fly (or `built`: the build's output, whose memory is what
 * production sees).
 */
export function mainCommand(built = false): [string, ...string[]] {
  return built
    ? [process.execPath, join(ROOT, BUILT_MAIN)]
    : [
        process.execPath,
        '-r',
        require.resolve('@swc-node/register'),
        join(ROOT, 'apps/gateway/src/main.ts'),
      ];
}

/** Its environment: only PATH is inherited, the rest is `env`. */
export function mainEnvironment(
  env: Record<string, string>,
): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '',
    SWC_NODE_PROJECT: join(ROOT, 'tsconfig.base.json'),
    HOST: '127.0.0.1',
    PORT: '0',
    ...env,
  };
}

/** `main.ts` in its own process (see `mainCommand`), in `cwd`. */
export function spawnMain(
  env: Record<string, string>,
  stdio: StdioOptions,
  built = false,
  cwd = ROOT,
): ChildProcess {
  const [node, ...args] = mainCommand(built);
  return spawn(node, args, { cwd, env: mainEnvironment(env), stdio });
}
