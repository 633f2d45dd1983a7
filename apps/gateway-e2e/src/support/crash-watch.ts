import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';

/**
 * What a gateway writes when a failure reached nobody: its own fatal lines
 * (apps/gateway/src/app/runtime/crash-report.ts) and, should it die before
 * those handlers exist, Node's own report of an uncaught error (its stack,
 * then the `Node.js v20…` line) or of an unhandled rejection.
 */
const CRASH_MARKERS = [
  /Unhandled promise rejection/,
  /Uncaught exception/,
  /UnhandledPromiseRejection/,
  /^Node\.js v\d+\.\d+\.\d+$/m,
];
/** Enough of the previous chunk to find a marker split across two. */
const CARRY = 64;

const found: string[] = [];

function watch(name: string, stream: Readable | null | undefined): void {
  if (!stream) return;
  let tail = '';
  let seen = false;
  stream.on('data', (chunk: Buffer | string) => {
    if (seen) return;
    const text = tail + chunk.toString();
    const marker = CRASH_MARKERS.find((pattern) => pattern.test(text));
    if (marker) {
      seen = true;
      // The whole line that says it (a JSON log line carries the stack
      // before its message), and what follows (Node's own report).
      const at = text.search(marker);
      const start = text.lastIndexOf('\n', at) + 1;
      found.push(
        `${name}: ${text.slice(Math.max(start, at - 4000), at + 2000)}`,
      );
    }
    tail = text.slice(-CARRY);
  });
}

/**
 * Watches a gateway process's output (its piped stdout and stderr) for a
 * crash report; the test file fails at its end if one was seen
 * (crash-guard.setup.ts), whatever its own assertions said.
 */
export function watchForCrashes(child: ChildProcess, name = 'gateway'): void {
  const label = `${name} (pid ${child.pid ?? '?'})`;
  watch(label, child.stdout);
  watch(label, child.stderr);
}

/**
 * Records rejections and exceptions that reach nobody in this process (an
 * in-process gateway's); returns the function that stops recording.
 */
export function recordInProcessCrashes(): () => void {
  const record = (kind: string) => (error: unknown) =>
    found.push(
      `this test process: ${kind}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  const onRejection = record('unhandled rejection');
  const onException = record('uncaught exception');
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}

/** The crash reports seen since the last call. */
export function takeCrashReports(): string[] {
  return found.splice(0);
}
