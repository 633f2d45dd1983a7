import { spawn } from 'node:child_process';
import { join } from 'node:path';

import { watchForCrashes } from './crash-watch';
import { spawnMain } from './main-process';

export const ROOT = join(__dirname, '../../../..');

export interface ProcessRun {
  readonly lines: Array<Record<string, unknown>>;
  /** Standard output exactly as written (to look for what must not be there). */
  readonly stdout: string;
  readonly code: number | null;
}

/**
 * `main.ts` as `npm start` runs it, compiled on the fly, in `cwd` (the
 * repository by default) with only `env` and PATH; `whileUp` gets the URL
 * from the "listening" line and the process stops on SIGTERM after it.
 */
export function runMain(
  env: Record<string, string>,
  whileUp?: (url: string) => Promise<void>,
  cwd = ROOT,
): Promise<ProcessRun> {
  const child = spawnMain(env, ['ignore', 'pipe', 'inherit'], false, cwd);
  const lines: Array<Record<string, unknown>> = [];
  let stdout = '';
  let buffered = '';
  let work: Promise<void> = Promise.resolve();
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    buffered += chunk.toString('utf8');
    const complete = buffered.split('\n');
    buffered = complete.pop() ?? '';
    for (const text of complete) {
      const line = JSON.parse(text) as Record<string, unknown>;
      lines.push(line);
      if (whileUp && line['msg'] === 'Quitanda is listening')
        work = whileUp(String(line['url'])).finally(() =>
          child.kill('SIGTERM'),
        );
    }
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      work.then(() => resolve({ lines, stdout, code }), reject);
    });
  });
}

export interface CliRun {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number | null;
}

/** `npm run cli -- <args>` from sources, `input` on its standard input. */
export function runCli(
  args: readonly string[],
  env: Record<string, string>,
  input = '',
): Promise<CliRun> {
  const child = spawn(
    process.execPath,
    [
      '-r',
      require.resolve('@swc-node/register'),
      join(ROOT, 'apps/gateway/src/cli.ts'),
      ...args,
    ],
    {
      cwd: ROOT,
      env: {
        PATH: process.env['PATH'] ?? '',
        SWC_NODE_PROJECT: join(ROOT, 'tsconfig.base.json'),
        ...env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  watchForCrashes(child, 'cli');
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(input);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ stdout, stderr, code }));
  });
}

/** The embedded database of `dataDir`, served by a process of its own. */
export async function serveEmbedded(
  dataDir: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    [
      '-r',
      require.resolve('@swc-node/register'),
      join(__dirname, 'serve-embedded.ts'),
      dataDir,
    ],
    {
      cwd: ROOT,
      env: {
        PATH: process.env['PATH'] ?? '',
        SWC_NODE_PROJECT: join(ROOT, 'tsconfig.base.json'),
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(text.trim());
    });
    child.once('exit', (code) =>
      reject(new Error(`embedded database exited with ${code}`)),
    );
  });
  return {
    url,
    async close() {
      child.stdin.end();
      await exited;
    },
  };
}
