import { spawn } from 'node:child_process';
import type { ChildProcess, StdioOptions } from 'node:child_process';
import { join } from 'node:path';

import { watchForCrashes } from './crash-watch';

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

/**
 * `main.ts` in its own process (see `mainCommand`), in `cwd`, its output
 * watched for crash reports (`watchForCrashes`): an inherited stdout or
 * stderr is piped and passed on, so that it can be read.
 */
export function spawnMain(
  env: Record<string, string>,
  stdio: StdioOptions,
  built = false,
  cwd = ROOT,
): ChildProcess {
  const [node, ...args] = mainCommand(built);
  const wanted = Array.isArray(stdio) ? stdio : [stdio, stdio, stdio];
  const piped = wanted.map((option, fd) =>
    fd > 0 && fd < 3 && option === 'inherit' ? 'pipe' : option,
  );
  const child = spawn(node, args, {
    cwd,
    env: mainEnvironment(env),
    stdio: piped,
  });
  if (wanted[1] === 'inherit') child.stdout?.pipe(process.stdout);
  if (wanted[2] === 'inherit') child.stderr?.pipe(process.stderr);
  watchForCrashes(child);
  return child;
}
