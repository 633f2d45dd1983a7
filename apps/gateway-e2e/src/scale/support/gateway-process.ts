import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';

import { watchForCrashes } from '../../support/crash-watch';

const ROOT = join(__dirname, '../../../../..');
/** The built gateway, as production runs it (`npm run build` first). */
export const GATEWAY_MAIN = join(ROOT, 'dist/apps/gateway/src/main.js');
export const GATEWAY_CLI = join(ROOT, 'dist/apps/gateway/src/cli.js');

export interface GatewayProcess {
  readonly url: string;
  /** Names of the migrations this process applied at boot. */
  readonly applied: readonly string[];
  /** stderr and the log lines at warn level or worse, for failure messages. */
  readonly problems: string[];
  stop(): Promise<number | null>;
}

/**
 * Starts `dist/apps/gateway/src/main.js` with `env` and resolves once it logs
 * that it listens; rejects if it exits first.
 */
export function startGatewayProcess(
  env: Record<string, string>,
): Promise<GatewayProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--enable-source-maps', GATEWAY_MAIN],
    {
      cwd: ROOT,
      env: {
        PATH: process.env['PATH'] ?? '',
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'info',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  watchForCrashes(child);
  const problems: string[] = [];
  let applied: string[] = [];
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code, signal) => {
      if (signal) problems.push(`killed by ${signal}`);
      resolve(code);
    }),
  );
  child.stderr?.on('data', (chunk: Buffer) =>
    problems.push(chunk.toString('utf8')),
  );
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.once('error', reject);
    exited.then(
      (code) =>
        reject(
          new Error(
            `gateway exited with ${code} before listening:\n${problems.join('')}`,
          ),
        ),
      reject,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const text of lines) {
        // Request lines are most of the log: parse only the ones we need.
        if (/"level":(40|50|60)/.test(text)) problems.push(text);
        if (text.includes('"Applied migrations"'))
          applied = (JSON.parse(text) as { applied: string[] }).applied;
        if (!text.includes('"Quitanda is listening"')) continue;
        const { url } = JSON.parse(text) as { url: string };
        resolve({
          url,
          get applied() {
            return applied;
          },
          problems,
          async stop() {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
  });
}
