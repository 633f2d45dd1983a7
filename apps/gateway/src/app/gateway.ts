import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';

import { NestFactory } from '@nestjs/core';
import type { Logger } from 'pino';
import type { NestExpressApplication } from '@nestjs/platform-express';

import { AppModule } from './app.module';
import { recordInitialCredentials } from './bootstrap/initial-credentials';
import { bootstrapContexts } from './contexts/context-bootstrap';
import { withAlertsKey } from './bootstrap/generated-secrets';
import {
  firstScreen,
  listeningLine,
  migrationsLine,
  signInLine,
} from './bootstrap/start-summary';
import type { GatewayConfig } from './config/gateway-config';
import { configureApp } from './configure-app';
import { ReadinessService } from './health/readiness.service';
import { ConnectionDrain } from './http/connection-drain';
import { GatewayExpressAdapter } from './http/gateway-express.adapter';
import { createGatewayLogger, logFormatOf } from './logging/gateway-logger';
import { buildInfo } from './version/build-info';
import { activeContexts } from './contexts/context-catalog';
import {
  migrateContexts,
  openGatewayDatabase,
} from './database/gateway-database';

export interface Gateway {
  readonly app: NestExpressApplication;
  /** Base URL the gateway listens on, e.g. `http://127.0.0.1:3000`. */
  readonly url: string;
  /**
   * Not ready at once, stop accepting, finish in-flight requests (closing
   * keep-alive connections as they fall idle), then close the contexts
   * (their buffers flushed) and the database.
   */
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
  configured: GatewayConfig,
  log: Logger = createGatewayLogger(configured),
): Promise<Gateway> {
  const { config, generatedIn } = await withAlertsKey(configured);
  // Debug: the first screen stays three lines; docs/operations.md says it.
  if (generatedIn)
    log.debug(
      { file: generatedIn },
      `Generated the alerts encryption key into ${generatedIn} (owner-only); give every replica the same ALERTS_ENCRYPTION_KEY`,
    );
  const database = await openGatewayDatabase(config);
  const readable = logFormatOf(config.logFormat) === 'pretty';
  let started: NestExpressApplication | undefined;
  try {
    const applied =
      config.migrations === 'auto'
        ? await migrateContexts(activeContexts(config), database.url)
        : [];
    // On a terminal the banner comes first and the list would wrap over
    // lines: there it is one counted line after the banner.
    if (applied.length > 0 && !readable)
      log.info({ applied }, 'Applied migrations');
    const app = await NestFactory.create<NestExpressApplication>(
      AppModule.forRoot({ config, databaseUrl: database.url }),
      new GatewayExpressAdapter(config.http, {
        callerScopes: Boolean(config.databaseReadUrl),
      }),
      { bodyParser: false, bufferLogs: true, abortOnError: false },
    );
    started = app;
    configureApp(app, config, log);
    const connections = new ConnectionDrain(app.getHttpServer());
    await app.init();
    await recordInitialCredentials(
      config.dataDir,
      await bootstrapContexts(app, activeContexts(config)),
    );
    await app.listen(config.port, config.host);
    const address = app.getHttpServer().address() as AddressInfo;
    const host =
      config.host === '0.0.0.0' || config.host === '::'
        ? '127.0.0.1'
        : config.host;
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
    const listening = listeningLine(
      config,
      url,
      database.kind === 'embedded'
        ? `embedded PGlite in ${config.dataDir}`
        : 'PostgreSQL (DATABASE_URL)',
    );
    const signIn = await signInLine(config, url);
    // One first screen per start, not one per worker (WORKERS).
    const firstProcess = cluster.isPrimary || cluster.worker?.id === 1;
    if (readable && firstProcess) {
      log.info(firstScreen(buildInfo().version, listening, signIn));
    } else {
      log.info(listening.fields, listening.msg);
      if (signIn) log.info(signIn.fields, signIn.msg);
    }
    if (applied.length > 0 && readable) {
      log.info(migrationsLine(applied.length));
      log.debug({ applied }, 'Applied migrations');
    }
    // Boot lines go out now (supervisors and tests wait for them), not
    // once 4 KiB more have been logged; request lines stay batched. A flush
    // during a write in flight only waits for it, hence the second one.
    log.flush(() => log.flush());
    return {
      app,
      url,
      async close() {
        try {
          app.get(ReadinessService).markStopping();
          await connections.drain();
          await app.close();
        } finally {
          await database.close();
          log.flush();
        }
      },
    };
  } catch (error) {
    // A refused start stops what it started (workers, timers) before the
    // database goes, so nothing runs on behind the error.
    await started?.close().catch(() => undefined);
    await database.close();
    throw error;
  }
}
