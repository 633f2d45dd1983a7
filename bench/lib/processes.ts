import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';

import type { ServerCommand } from './types';

/** Whether `taskset` can pin processes to separate cores here. */
export function canPin(): boolean {
  try {
    require('node:child_process').execFileSync(
      'taskset',
      ['-p', String(process.pid)],
      {
        stdio: 'ignore',
      },
    );
    return require('node:os').availableParallelism() >= 2;
  } catch {
    return false;
  }
}

/** Pins this process (the load generator) to core 0. */
export function pinSelf(): void {
  require('node:child_process').execFileSync(
    'taskset',
    ['-pc', '0', String(process.pid)],
    {
      stdio: 'ignore',
    },
  );
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        resolve(typeof address === 'object' && address ? address.port : 0),
      );
    });
  });
}

export interface RunningServer {
  readonly url: string;
  /** The process's peak resident set so far (Linux `VmHWM`), in MB, if known. */
  peakRssMb(): number | undefined;
  /** The resident set now (`VmRSS`, a primary's own memory as for the peak), in MB. */
  rssMb(): number | undefined;
  /** CPU time (user + system) the process has used so far, in ms, if known. */
  cpuMs(): number | undefined;
  stop(): Promise<void>;
}

/**
 * `VmHWM` of a live process: the kernel's own high-water mark of its
 * resident set, so no sampling can miss a short peak.
 */
function peakRssOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1];
    return kb === undefined ? undefined : Math.round(Number(kb) / 1024);
  } catch {
    return undefined;
  }
}

/** `VmRSS` of a live process: its resident set now, in MB. */
function rssOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
    return kb === undefined ? undefined : Math.round(Number(kb) / 1024);
  } catch {
    return undefined;
  }
}

/**
 * What a cluster's primary adds to its workers' memory: its own anonymous
 * (and shared-memory) pages. Its code pages are the workers' own (one node
 * binary, mapped once in memory however many processes run it), which
 * VmHWM would count again; it serves nothing, so its use is flat and a
 * reading at the end is its peak.
 */
function ownMemoryOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) =>
      Number(
        new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1] ?? 0,
      );
    return Math.round((kb('RssAnon') + kb('RssShmem')) / 1024);
  } catch {
    return undefined;
  }
}

/** Linux's clock ticks per second for `/proc/<pid>/stat` (USER_HZ: 100 on every Linux ABI). */
const USER_HZ = 100;

/**
 * utime + stime of a live process from `/proc/<pid>/stat`: the CPU a
 * workload cost the server, which moves far less than its req/s when the
 * machine's other tenants take the cores away.
 */
function cpuMsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may hold spaces: state is field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / USER_HZ : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `of` summed over a process and its children (a cluster's workers; for a
 * single process, the process alone); `ofParent`, when given, for a process
 * that has children.
 */
function overTree(
  pid: number | undefined,
  of: (pid: number | undefined) => number | undefined,
  ofParent = of,
): number | undefined {
  if (pid === undefined) return undefined;
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    // Gone, or no /proc: the process alone.
  }
  const own = children.length > 0 ? ofParent(pid) : of(pid);
  return own === undefined
    ? undefined
    : children.reduce((sum, child) => sum + (of(child) ?? 0), own);
}

/**
 * Starts a server process (pinned to core 1 when possible, cores 1 to N for
 * N workers) and waits until it answers, and for N workers until each has
 * logged that it listens.
 */
export async function startServer(
  command: ServerCommand,
  port: number,
  readyPath: string,
  pinned: boolean,
): Promise<RunningServer> {
  const workers = command.workers ?? 1;
  const lastCore = Math.max(1, Math.min(workers, availableParallelism() - 1));
  const [file, args] = pinned
    ? [
        'taskset',
        [
          '-c',
          lastCore > 1 ? `1-${lastCore}` : '1',
          command.file,
          ...command.args,
        ],
      ]
    : [command.file, command.args];
  const child: ChildProcess = spawn(file, args, {
    env: { ...process.env, ...command.env },
    stdio: ['ignore', workers > 1 ? 'pipe' : 'ignore', 'pipe'],
  });
  let listening = 0;
  child.stdout?.on('data', (chunk: Buffer) => {
    listening +=
      chunk.toString('utf8').split('"Quitanda is listening"').length - 1;
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`server exited (${child.exitCode}): ${stderr}`);
    }
    try {
      const res = await fetch(url + readyPath);
      if (res.ok && listening >= (workers > 1 ? workers : 0)) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server not ready after 60 s: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    // `taskset -c 1 file` execs `file`: the pid is the server's own.
    peakRssMb: () => overTree(child.pid, peakRssOf, ownMemoryOf),
    rssMb: () => overTree(child.pid, rssOf, ownMemoryOf),
    cpuMs: () => overTree(child.pid, cpuMsOf),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 20_000).unref();
      }),
  };
}

/**
 * CPU time (ms) every local PostgreSQL process has used so far: the live
 * ones' own, plus what the postmaster (the one whose parent is no
 * `postgres`) counts for its exited children (closed connections).
 * Undefined when no PostgreSQL runs on this machine (a remote
 * `BENCH_DATABASE_URL`).
 */
export function databaseCpuMs(): number | undefined {
  const processes = new Map<string, string[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  for (const pid of entries) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (
        stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) === 'postgres'
      )
        processes.set(pid, stat.slice(stat.lastIndexOf(')') + 2).split(' '));
    } catch {
      // Gone since the listing.
    }
  }
  if (processes.size === 0) return undefined;
  let ticks = 0;
  for (const fields of processes.values()) {
    // After the name: ppid is field 1; utime, stime, cutime, cstime 11-14.
    ticks += Number(fields[11]) + Number(fields[12]);
    if (!processes.has(fields[1] ?? ''))
      ticks += Number(fields[13]) + Number(fields[14]);
  }
  return (ticks * 1000) / USER_HZ;
}
