import type { Logger } from 'pino';

/** What the gateway logs before it exits on a failure nothing handled. */
export const UNHANDLED_REJECTION = 'Unhandled promise rejection';
export const UNCAUGHT_EXCEPTION = 'Uncaught exception';

/**
 * Reports a rejection or exception nothing handled as one fatal log line,
 * then exits 1 as Node would: the process may hold broken state, so it is
 * not kept running. With `DATABASE_URL` every gateway runs under its
 * primary, which replaces it. Tests scan for these lines, so a leaked
 * promise fails them instead of passing unseen.
 */
export function reportCrashes(
  log: () => Logger,
  exit: (code: number) => void,
): void {
  let crashed = false;
  const crash = (msg: string) => (error: unknown) => {
    if (crashed) return;
    crashed = true;
    log().fatal({ err: error }, msg);
    // Should writing the line itself hang, the exit still comes.
    setTimeout(() => process.exit(1), 2_000);
    exit(1);
  };
  process.on('unhandledRejection', crash(UNHANDLED_REJECTION));
  process.on('uncaughtException', crash(UNCAUGHT_EXCEPTION));
}
