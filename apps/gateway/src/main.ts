import 'reflect-metadata';

import cluster from 'node:cluster';

import { loadDotEnv } from './app/config/env-file';
import { ConfigurationError } from './app/config/env.schema';
import { loadConfig } from './app/config/gateway-config';
import type { GatewayConfig } from './app/config/gateway-config';
import { createGatewayLogger } from './app/logging/gateway-logger';
import { workerAllocatorEnv } from './app/runtime/allocator-policy';
import { reportCrashes } from './app/runtime/crash-report';
import { applyHeapPolicy, workerHeapFlags } from './app/runtime/heap-policy';
import { stopSignal } from './app/runtime/stop-signal';
import { runWorkerCluster } from './app/runtime/worker-cluster';

applyHeapPolicy();
const stopRequested = stopSignal();

// Until the configuration is read: the format the output suggests, at the
// default level.
let log = createGatewayLogger({ logLevel: 'info', logFormat: 'auto' });

/**
 * Exits once every buffered log line is written, in order: a plain
 * `process.exit` would write the last lines synchronously ahead of a batch
 * still being written asynchronously (or lose that batch).
 */
function exitAfterLogs(code: number): void {
  log.flush(() => process.exit(code));
}

reportCrashes(() => log, exitAfterLogs);

function configOrExit(): GatewayConfig & { envFile?: string } {
  try {
    const envFile = loadDotEnv();
    return { ...loadConfig(process.env), envFile };
  } catch (error) {
    if (error instanceof ConfigurationError) {
      log.fatal(error.message);
      // EX_CONFIG; nothing else runs yet, so the line is written at exit.
      process.exit(78);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const config = configOrExit();
  log = createGatewayLogger(config);
  if (config.envFile && cluster.isPrimary)
    log.info({ file: config.envFile }, 'Read settings from .env');
  // With a database server the gateway always runs under its primary, one
  // worker or many, so that a worker that dies is replaced within seconds.
  // The embedded database lives in the one process that serves.
  if (cluster.isPrimary && config.databaseUrl) {
    // What the primary said goes out before its workers say anything.
    log.flush();
    cluster.setupPrimary({
      execArgv: [...process.execArgv, ...workerHeapFlags()],
    });
    // Workers start with the primary's environment.
    Object.assign(process.env, workerAllocatorEnv());
    const code = await runWorkerCluster(config, log, stopRequested);
    log.info('Stopped');
    return exitAfterLogs(code);
  }
  if (config.workers > 1 && cluster.isPrimary) {
    log.warn(
      `WORKERS=${config.workers} asked, but the embedded database serves one process: running one gateway process (set DATABASE_URL to run several)`,
    );
  }
  // Counted from the signal, even one received while booting.
  // The process entry keeps its imports to its own app folder: the
  // handler is written out here rather than through inBackground.
  stopRequested.then(
    () =>
      setTimeout(() => {
        log.error('Shutdown timed out; exiting');
        process.exit(1);
      }, config.shutdownTimeoutMs).unref(),
    (error: unknown) =>
      log.error({ err: error }, 'Arming the shutdown timeout failed'),
  );
  // Loaded here, not at the top: a cluster's primary serves nothing and
  // stays small without Nest, TypeORM and the contexts.
  const { startGateway } = await import('./app/gateway');
  const gateway = await startGateway(config, log);
  const signal = await stopRequested;
  log.info({ signal }, 'Shutting down: finishing in-flight requests');
  try {
    await gateway.close();
  } catch (error) {
    log.error({ err: error }, 'Shutdown failed');
    return exitAfterLogs(1);
  }
  log.info('Stopped');
  exitAfterLogs(0);
}

main().catch((error: unknown) => {
  log.fatal({ err: error }, 'Failed to start');
  exitAfterLogs(1);
});
