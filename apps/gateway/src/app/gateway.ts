import type { AddressInfo } from 'node:net';

import { NestFactory } from '@nestjs/core';
import type { Logger } from 'pino';
import type { NestExpressApplication } from '@nestjs/platform-express';

import { AppModule } from './app.module';
import {
  bootstrapContexts,
  recordInitialCredentials,
} from './bootstrap/initial-credentials';
import type { GatewayConfig } from './config/gateway-config';
import { configureApp } from './configure-app';
import { GatewayExpressAdapter } from './http/gateway-express.adapter';
import { createGatewayLogger } from './logging/gateway-logger';
import { activeContexts } from './contexts/context-catalog';
import {
  migrateContexts,
  openGatewayDatabase,
} from './database/gateway-database';

export interface Gateway {
  readonly app: NestExpressApplication;
  /** Base URL the gateway listens on, e.g. `http://127.0.0.1:3000`. */
  readonly url: string;
  /** Stop accepting, finish in-flight requests, close the database. */
  close(): Promise<void>;
}

/**
 * Boots the whole gateway: database (server or embedded), migrations when
 * `MIGRATIONS=auto`, the Nest application, the listener. Used by `main.ts`
 * and by the e2e tests, so both run the same code. `main.ts` passes its own
 * logger so that every line of the process shares one format and one
 * buffered destination (and so stays in order).
 */
export async function startGateway(
  config: GatewayConfig,
  log: Logger = createGatewayLogger(config),
): Promise<Gateway> {
  const database = await openGatewayDatabase(config);
  try {
    if (config.migrations === 'auto') {
      const applied = await migrateContexts(config, database.url);
      if (applied.length > 0) log.info({ applied }, 'Applied migrations');
    }
    const app = await NestFactory.create<NestExpressApplication>(
      AppModule.forRoot({ config, databaseUrl: database.url }),
      new GatewayExpressAdapter(),
      { bodyParser: false, bufferLogs: true, abortOnError: false },
    );
    configureApp(app, config, log);
    await app.init();
    const generated = await bootstrapContexts(app, activeContexts(config));
    if (Object.keys(generated).length > 0) {
      const file = await recordInitialCredentials(config.dataDir, generated);
      log.info(
        { file, contexts: Object.keys(generated) },
        'First boot: generated demo credentials; they are in this file (owner-only), not in the log',
      );
    }
    await app.listen(config.port, config.host);
    const address = app.getHttpServer().address() as AddressInfo;
    const host =
      config.host === '0.0.0.0' || config.host === '::'
        ? '127.0.0.1'
        : config.host;
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
    log.info(
      {
        url,
        contexts: [...config.contexts],
        database:
          database.kind === 'embedded'
            ? `embedded PGlite in ${config.dataDir}`
            : 'PostgreSQL (DATABASE_URL)',
      },
      'Quitanda is listening',
    );
    // Lines are written in 4 KiB batches: whoever waits for this one (an
    // orchestrator, a test) must see it now, not when the batch fills. A
    // flush during a write in flight does nothing, so flush again once the
    // stream drains (pino's flush callback waits for that).
    log.flush();
    log.flush(() => log.flush());
    return {
      app,
      url,
      async close() {
        try {
          await app.close();
        } finally {
          await database.close();
          log.flush();
        }
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
