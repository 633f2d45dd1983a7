import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { BODY_BUDGET } from '@quitanda/http';
import type { HttpErrorFormat } from '@quitanda/kernel';
import type { Logger } from 'pino';

import type { GatewayConfig } from './config/gateway-config';
import { activeContexts } from './contexts/context-catalog';
import { HTTP_ERROR_FORMATS, HttpErrorFilter } from './http/http-error.filter';
import { minBodyRateMiddleware } from './http/min-body-rate.middleware';
import { requestDeadlineMiddleware } from './http/request-deadline.middleware';
import type { ErrorAnswer } from './http/request-deadline.middleware';
import { unreadBodyDrainMiddleware } from './http/unread-body-drain';
import { PinoNestLogger } from './logging/pino-nest-logger';
import { requestLoggingMiddleware } from './logging/request-logging.middleware';
import { httpMetricsMiddleware } from './metrics/http-metrics.middleware';
import type { HttpMetrics } from './metrics/metrics';
import { setupOpenApi } from './openapi/openapi';
import { HTTP_METRICS } from './platform.module';

/**
 * Routes that read no body note no limit: for them, the JSON APIs' limit
 * (what a client sending a body there most likely meant).
 */
const DEFAULT_DRAIN_LIMIT_BYTES = 1024 * 1024;

/**
 * Application-level HTTP settings, shared by `main.ts` and the e2e tests so
 * both run the same gateway.
 */
export function configureApp(
  app: NestExpressApplication,
  config: GatewayConfig,
  logger: Logger,
): void {
  app.useLogger(new PinoNestLogger(logger));
  app.set('trust proxy', config.trustProxy);
  app.disable('x-powered-by');
  // Contexts send their own strong ETags where the contract wants them;
  // Express's automatic weak ones would hash every response body.
  app.set('etag', false);
  app.use(requestLoggingMiddleware(logger));
  // One budget per process: the last gateway booted in it sets it.
  BODY_BUDGET.capacityBytes = config.bodyBudgetBytes;
  app.use(
    unreadBodyDrainMiddleware({
      defaultLimitBytes: DEFAULT_DRAIN_LIMIT_BYTES,
      // The client's transfer, not a wait for the database: a large body
      // on a slow link outlasts the request deadline (DB_TIMEOUT_MS).
      timeoutMs: config.http.requestTimeoutMs,
    }),
  );
  // No response of this API is meant to be sniffed into something else.
  app.use(
    (
      _req: unknown,
      res: { setHeader(n: string, v: string): void },
      next: () => void,
    ) => {
      res.setHeader('X-Content-Type-Options', 'nosniff');
      next();
    },
  );
  app.use(httpMetricsMiddleware(app.get<HttpMetrics>(HTTP_METRICS)));
  for (const context of activeContexts(config))
    if (context.beforeRouting) app.use(context.beforeRouting);
  // A missed deadline leaves through the same filter as every other error.
  const errors = new HttpErrorFilter(
    app.get<readonly HttpErrorFormat[]>(HTTP_ERROR_FORMATS),
  );
  const answer: ErrorAnswer = (req, res, error) =>
    errors.catch(error, new ExecutionContextHost([req, res]));
  app.use(requestDeadlineMiddleware(config.dbTimeoutMs, answer));
  app.use(
    minBodyRateMiddleware(
      {
        bytesPerSecond: config.http.minBodyBytesPerSecond,
        graceMs: config.http.bodyRateGraceMs,
      },
      answer,
    ),
  );
  setupOpenApi(app, activeContexts(config), config.publicBaseUrl);
}
