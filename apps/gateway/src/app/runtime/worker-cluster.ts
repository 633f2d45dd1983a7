import cluster from 'node:cluster';
import type { Logger } from 'pino';

/** Crashes within this window count as one crash loop. */
const CRASH_WINDOW_MS = 60_000;
const MAX_RESTART_DELAY_MS = 30_000;
/** Past the workers' own shutdown timeout: they are stuck, not draining. */
const STOP_MARGIN_MS = 5_000;

/**
 * How long to wait before replacing a worker, given the crashes of the
 * last minute (this one included): at once for a lone crash, so capacity
 * comes back; then 0.5 s doubling up to 30 s, so a worker that dies at
 * every start (a bad deploy, a database refusing it) does not spin a core.
 */
export function restartDelayMs(recentCrashes: number): number {
  if (recentCrashes <= 1) return 0;
  return Math.min(MAX_RESTART_DELAY_MS, 500 * 2 ** (recentCrashes - 2));
}

export interface WorkerClusterOptions {
  readonly workers: number;
  readonly shutdownTimeoutMs: number;
}

/**
 * The primary process whenever `DATABASE_URL` is set (`WORKERS` of them,
 * one by default). It serves nothing itself: it forks
 * the workers (each runs `main.ts`, the whole gateway, on the same port
 * through Node's cluster module), the first alone so that migrations,
 * first-boot credentials and generated secrets are made once before the
 * others start; it replaces a worker that dies (after `restartDelayMs`);
 * on the stop signal it sends SIGTERM to every worker, each of which drains
 * as a single gateway does. Resolves with the exit code: 0 when every
 * worker stopped cleanly.
 */
export function runWorkerCluster(
  options: WorkerClusterOptions,
  log: Logger,
  stopRequested: Promise<NodeJS.Signals>,
): Promise<number> {
  return new Promise((resolve) => {
    const live = new Set<number>();
    /** Workers that listen: the others are still booting. */
    const serving = new Set<number>();
    const crashes: number[] = [];
    let served = false;
    let stopping = false;
    let failed = false;

    // Lifecycle lines are rare and wanted at once, not with the next 4 KiB.
    const now = (write: () => void) => {
      write();
      log.flush();
    };
    const start = () => {
      if (!stopping) live.add(cluster.fork().id);
    };
    const finishIfStopped = () => {
      if (stopping && live.size === 0) resolve(failed ? 1 : 0);
    };

    cluster.on('listening', (worker) => {
      serving.add(worker.id);
      // A stop asked while it booted is answered now that it is up, as a
      // single gateway answers one (it drains instead of dying mid-boot).
      if (stopping) {
        worker.process.kill('SIGTERM');
        return;
      }
      if (served) {
        now(() =>
          log.info({ worker: worker.process.pid }, 'Worker is serving'),
        );
        return;
      }
      served = true;
      for (let i = 1; i < options.workers; i++) start();
      now(() =>
        log.info(
          { worker: worker.process.pid, workers: options.workers },
          options.workers > 1
            ? `First worker is serving; starting the other ${options.workers - 1}`
            : 'Worker is serving',
        ),
      );
    });

    cluster.on('exit', (worker, code, signal) => {
      live.delete(worker.id);
      serving.delete(worker.id);
      if (stopping) {
        // A worker still loading when the stop signal reached it has no
        // handler yet: the signal ends it by its default action, which is
        // the stop it was asked for, not a failure.
        if (code !== 0 && signal !== 'SIGTERM') failed = true;
        return finishIfStopped();
      }
      if (!served) {
        // The first worker could not start: its log says why (settings,
        // database). Another would fail the same way.
        log.error({ code, signal }, 'The first worker failed to start');
        stopping = failed = true;
        for (const id of live) cluster.workers?.[id]?.process.kill('SIGTERM');
        return finishIfStopped();
      }
      const at = Date.now();
      crashes.push(at);
      while (crashes[0] !== undefined && crashes[0] < at - CRASH_WINDOW_MS)
        crashes.shift();
      const delayMs = restartDelayMs(crashes.length);
      now(() =>
        log.warn(
          { worker: worker.process.pid, code, signal, delayMs },
          'Worker exited; starting a replacement',
        ),
      );
      setTimeout(start, delayMs);
    });

    const stopAll = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      log.info(
        { signal, workers: live.size },
        'Stopping: every worker finishes its in-flight requests (one still booting once it is up)',
      );
      // A worker still booting gets it once it listens.
      for (const id of live)
        if (serving.has(id)) cluster.workers?.[id]?.process.kill('SIGTERM');
      setTimeout(() => {
        log.error('Workers did not stop in time; killing them');
        failed = true;
        for (const id of live) cluster.workers?.[id]?.process.kill('SIGKILL');
      }, options.shutdownTimeoutMs + STOP_MARGIN_MS).unref();
      finishIfStopped();
    };
    // Like main.ts, the primary's code imports no library: the handler
    // is written out here rather than through inBackground.
    stopRequested.then(stopAll, (error: unknown) =>
      log.error({ err: error }, 'Stopping the workers failed'),
    );

    start();
  });
}
