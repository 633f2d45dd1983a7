/**
 * The first SIGTERM or SIGINT the process receives. Listening replaces the
 * signals' default action, which ends the process at once wherever it is
 * (exit by signal, nothing flushed): `main.ts` calls this before it prints
 * or listens anything, so a signal that arrives while the gateway boots, or
 * just as its first screen is printed, is kept and answered once it is up,
 * by the one shutdown path. The listeners stay: a repeated signal while
 * stopping changes nothing (the shutdown timeout bounds it).
 */
export function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    process.on('SIGTERM', resolve);
    process.on('SIGINT', resolve);
  });
}
