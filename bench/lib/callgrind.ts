import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import autocannon from 'autocannon';
import type { Options } from 'autocannon';

import type { ServerCommand } from './types';

const run = promisify(execFile);

export interface CallgrindCounts {
  /** Requests sent before counting starts (JIT warm, caches full). */
  readonly warmup: number;
  /** Requests counted. */
  readonly measured: number;
  readonly connections: number;
}

/** `amount` requests through autocannon; throws on any error or non-2xx. */
async function send(
  url: string,
  requests: Partial<Options>,
  amount: number,
  connections: number,
): Promise<void> {
  const result = await autocannon({
    url,
    connections,
    amount,
    pipelining: 1,
    timeout: 600,
    ...requests,
  } as Options);
  if (result.errors + result.timeouts + result.non2xx > 0)
    throw new Error(
      `${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx under callgrind`,
    );
}

/** The sum of the `totals:` lines of the serving process's dumps. */
function totalInstructions(dir: string, pid: number): number {
  let total = 0;
  for (const file of readdirSync(dir))
    if (file.startsWith(`cg.${pid}.`)) {
      const match = /^totals:\s+(\d+)/m.exec(
        readFileSync(join(dir, file), 'utf8'),
      );
      total += Number(match?.[1] ?? 0);
    }
  return total;
}

/**
 * Instructions the serving process executes per request, counted by
 * callgrind: the same on a busy machine as on an idle one, so two builds
 * compare to within a fraction of a percent where CPU time moves by
 * several. The server runs under valgrind with counting off; after the
 * warm-up it is switched on for the measured requests only. Timeouts are
 * raised: everything runs some fifty times slower.
 */
export async function instructionsPerRequest(
  command: ServerCommand,
  port: number,
  requests: Partial<Options>,
  counts: CallgrindCounts,
): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'quitanda-callgrind-'));
  // Valgrind names its gdbserver pipes after $HOST: the control calls below
  // must see the server's.
  const env = {
    ...process.env,
    ...command.env,
    DB_TIMEOUT_MS: '120000',
    HTTP_REQUEST_TIMEOUT_MS: '600000',
  };
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--trace-children=yes',
      `--vgdb-prefix=${join(dir, 'vgdb')}`,
      '--instr-atstart=no',
      `--callgrind-out-file=${join(dir, 'cg.%p')}`,
      command.file,
      // No V8 helper threads (concurrent marking, background compiles):
      // their share of the work depends on timing, which callgrind slows
      // fiftyfold; in the main thread it counts the same every run.
      '--single-threaded',
      ...command.args,
    ],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  let serving: number | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
    const listening = /"pid":(\d+)[^\n]*"msg":"Quitanda is listening"/.exec(
      output,
    );
    if (serving === undefined && listening) serving = Number(listening[1]);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  });
  const control = (...args: string[]) =>
    run(
      'callgrind_control',
      [`--vgdb-prefix=${join(dir, 'vgdb')}`, ...args, String(serving)],
      { env },
    );
  try {
    const deadline = Date.now() + 300_000;
    while (serving === undefined) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`the server did not start under valgrind:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const url = `http://127.0.0.1:${port}`;
    await send(url, requests, counts.warmup, counts.connections);
    await control('-i', 'on');
    await send(url, requests, counts.measured, counts.connections);
    await control('-i', 'off');
    await control('-d');
    return totalInstructions(dir, serving) / counts.measured;
  } finally {
    if (serving !== undefined) process.kill(serving, 'SIGKILL');
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}
