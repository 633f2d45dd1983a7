import { readFile } from 'node:fs/promises';

import { freePort } from '@quitanda/testing';

import { spawnMain } from '../../support/main-process';

/**
 * FAULTS_BUILT=1 (CI, after its build step): run the build's output, not
 * the sources compiled on the fly (faster to boot, production's memory).
 */
const BUILT = process.env['FAULTS_BUILT'] === '1';

export type LogLine = Record<string, unknown>;

/** The gateway as `npm start` runs it: its own process, real signals. */
export interface GatewayProcess {
  /** The process started: with `DATABASE_URL`, the cluster's primary. */
  readonly pid: number;
  /** The process serving requests (the primary's one worker, else `pid`). */
  servingPid(): Promise<number>;
  readonly url: string;
  /** Every JSON line it has logged so far, and its raw stdout and stderr. */
  readonly lines: readonly LogLine[];
  output(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): void;
}

/**
 * Starts `apps/gateway/src/main.ts` (compiled on the fly, as the process
 * e2e spec does) on a free port and resolves once it answers; rejects if it
 * exits first. Its log level stays `warn` unless `env` says otherwise.
 */
export async function startGatewayProcess(
  env: Record<string, string>,
  bootMs = 60_000,
): Promise<GatewayProcess> {
  const port = env['PORT'] ?? String(await freePort());
  const url = `http://127.0.0.1:${port}`;
  const child = spawnMain(
    { LOG_LEVEL: 'warn', ...env, PORT: port },
    ['ignore', 'pipe', 'pipe'],
    BUILT,
  );
  const lines: LogLine[] = [];
  const raw: string[] = [];
  let exitCode: number | null | undefined;
  let pending = '';
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      resolve(code);
    }),
  );
  const handle: GatewayProcess = {
    pid: child.pid ?? 0,
    servingPid: () => servingPidOf(child.pid ?? 0),
    url,
    lines,
    output: () => raw.join(''),
    exited,
    kill: (signal) => {
      child.kill(signal);
    },
  };
  child.stderr?.on('data', (chunk: Buffer) => raw.push(chunk.toString('utf8')));
  child.stdout?.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    raw.push(text);
    pending += text;
    const complete = pending.split('\n');
    pending = complete.pop() ?? '';
    for (const entry of complete)
      if (entry.startsWith('{')) lines.push(JSON.parse(entry) as LogLine);
  });
  const started = performance.now();
  while (performance.now() - started < bootMs) {
    if (exitCode !== undefined)
      throw new Error(
        `gateway exited (${exitCode}) before serving:\n${raw.join('')}`,
      );
    const live = await fetch(`${url}/health/live`).catch(() => undefined);
    if (live?.ok) return handle;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error(
    `gateway did not serve within ${bootMs} ms:\n${raw.join('')}`,
  );
}

/**
 * The worker a primary runs (the one child with `WORKERS=1`), or `pid`
 * itself when it has none (the embedded database serves in one process).
 */
async function servingPidOf(pid: number): Promise<number> {
  const children = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .then((text) => text.trim().split(/\s+/).filter(Boolean).map(Number))
    .catch(() => []);
  return children.length === 1 ? (children[0] as number) : pid;
}

/**
 * Peak resident memory of a process (VmHWM: the kernel's own high-water
 * mark), in MB.
 */
export async function peakRssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}
