import 'reflect-metadata';

import pino from 'pino';

import { ConfigurationError } from './app/config/env.schema';
import { loadConfig } from './app/config/gateway-config';
import type { GatewayConfig } from './app/config/gateway-config';
import { startGateway } from './app/gateway';

let log = pino({ name: 'gateway' });

function configOrExit(): GatewayConfig {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigurationError) {
      log.fatal(error.message);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const config = configOrExit();
  log = pino({ name: 'gateway', level: config.logLevel });
  const gateway = await startGateway(config);

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
        process.exit(0);
      },
      (error: unknown) => {
        log.error({ err: error }, 'Shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

main().catch((error: unknown) => {
  log.fatal({ err: error }, 'Failed to start');
  process.exit(1);
});
