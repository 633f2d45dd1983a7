import 'reflect-metadata';

import { loadDotEnv } from './app/config/env-file';
import { ConfigurationError } from './app/config/env.schema';
import { loadConfig } from './app/config/gateway-config';
import type { GatewayConfig } from './app/config/gateway-config';
import { startGateway } from './app/gateway';
import { createGatewayLogger } from './app/logging/gateway-logger';
import { applyHeapPolicy } from './app/runtime/heap-policy';

applyHeapPolicy();

// Until the configuration is read: the same format, at the default level.
let log = createGatewayLogger({ logLevel: 'info' });

/**
 * Exits once every buffered log line is written, in order: a plain
 * `process.exit` would write the last lines synchronously ahead of a batch
 * still being written asynchronously (or lose that batch).
 */
function exitAfterLogs(code: number): void {
  log.flush(() => process.exit(code));
}

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
  if (config.envFile)
    log.info({ file: config.envFile }, 'Read settings from .env');
  const gateway = await startGateway(config, log);

  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'Shutting down: finishing in-flight requests');
    setTimeout(() => {
      log.error('Shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    gateway.close().then(
      () => {
        log.info('Stopped');
        exitAfterLogs(0);
      },
      (error: unknown) => {
        log.error({ err: error }, 'Shutdown failed');
        exitAfterLogs(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

main().catch((error: unknown) => {
  log.fatal({ err: error }, 'Failed to start');
  exitAfterLogs(1);
});
