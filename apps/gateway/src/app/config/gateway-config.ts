import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';

import { validateEnvironment } from './env.schema';
import type { ContextName, LOG_FORMATS, LOG_LEVELS } from './env.schema';

/** What one client connection may hold of the server. */
export interface HttpServerLimits {
  /** Time to receive a request's headers. */
  readonly headersTimeoutMs: number;
  /** Time to receive a whole request, body included. */
  readonly requestTimeoutMs: number;
  /** Time a keep-alive connection may stay idle between requests. */
  readonly keepAliveTimeoutMs: number;
  /** Open connections at most; more are closed as they arrive. */
  readonly maxConnections: number;
  /** Slowest average a request body may arrive at after its grace (0: any). */
  readonly minBodyBytesPerSecond: number;
  /** Time a body may start slowly before that floor applies. */
  readonly bodyRateGraceMs: number;
}

/** The gateway's validated, typed configuration. Built once, at boot. */
export interface GatewayConfig {
  readonly port: number;
  readonly host: string;
  /** Unset: the embedded PGlite under `dataDir`. */
  readonly databaseUrl?: string;
  /** A streaming replica of `databaseUrl` for reads that tolerate lag. */
  readonly databaseReadUrl?: string;
  readonly dataDir: string;
  readonly publicBaseUrl?: string;
  readonly trustProxy: boolean;
  readonly contexts: ReadonlySet<ContextName>;
  readonly migrations: 'auto' | 'off';
  readonly logLevel: (typeof LOG_LEVELS)[number];
  /** `auto` is pretty on a terminal, JSON otherwise (`LOG_FORMAT`). */
  readonly logFormat: (typeof LOG_FORMATS)[number];
  /** Gateway processes asked for (`WORKERS`, `auto` = available cores). */
  readonly workers: number;
  readonly dbPoolSize: number;
  /** Bound on every wait for the database, and each request's deadline. */
  readonly dbTimeoutMs: number;
  /** Named prepared statements for the hot statements (`DB_PREPARED_STATEMENTS`). */
  readonly dbPreparedStatements: boolean;
  readonly shutdownTimeoutMs: number;
  /** Bounds on each client connection (`HTTP_*`). */
  readonly http: HttpServerLimits;
  /** Request body bytes held in memory at once (`HTTP_BODY_BUDGET_BYTES`). */
  readonly bodyBudgetBytes: number;
  readonly initialRootToken?: string;
  readonly marketplaceApp?: {
    readonly appKey: string;
    readonly appSecret: string;
    readonly masterSecret: string;
    readonly name?: string;
  };
  readonly marketplace: {
    /** Base of file URLs (`FILES_PUBLIC_BASE_URL`), else `publicBaseUrl`. */
    readonly filesPublicBaseUrl?: string;
    readonly tokenLifetimeDays: number;
    readonly maxUploadBytes: number;
    readonly maxBodyBytes: number;
    readonly loginMaxFailures: number;
    readonly loginLockSeconds: number;
    readonly sessionCacheSeconds: number;
    readonly maxCollections: number;
    readonly maxSchemaBytes: number;
    readonly mailPerAddressPerHour: number;
    readonly mailPerAppPerHour: number;
    readonly signupsPerClientPerHour: number;
    readonly mfaEncryptionKey?: string;
    readonly manageEncryptionKey?: string;
  };
  readonly events: { readonly writeToken?: string };
  /** When set, `/metrics` needs `Authorization: Bearer <token>`. */
  readonly metricsToken?: string;
  /** Error-tracking alerts (webhooks and e-mail). */
  readonly alerts: {
    readonly smtpUrl?: string;
    readonly from?: string;
    readonly allowLocalTargets: boolean;
    readonly retryDelaysSeconds: readonly number[];
    readonly pollSeconds: number;
    readonly encryptionKey?: string;
  };
  readonly errorTracking: {
    readonly retentionDays: number;
    readonly retentionIntervalMinutes: number;
    readonly rateLimitPerMinute: number;
    readonly maxBodyBytes: number;
    readonly maxEnvelopeBytes: number;
    readonly maxEnvelopeItems: number;
    readonly maxEventBytes: number;
    readonly maxAttachmentBytes: number;
    readonly maxProjectAttachmentBytes: number;
    readonly maxArtifactBytes: number;
    /** Payload bytes the collector's spool may hold (database servers only). */
    readonly spoolMaxBytes: number;
    readonly sessionMinutes: number;
    readonly signInMaxFailures: number;
    readonly signInLockSeconds: number;
  };
}

export const GATEWAY_CONFIG = 'gateway:config';

/** Reads and validates the environment (throws `ConfigurationError`). */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
): GatewayConfig {
  const vars = validateEnvironment(env);
  return {
    port: vars.PORT,
    host: vars.HOST,
    databaseUrl: vars.DATABASE_URL,
    databaseReadUrl: vars.DATABASE_READ_URL,
    dataDir: resolve(vars.DATA_DIR),
    publicBaseUrl: vars.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    trustProxy: vars.TRUST_PROXY,
    contexts: new Set(vars.CONTEXTS as ContextName[]),
    migrations: vars.MIGRATIONS,
    logLevel: vars.LOG_LEVEL,
    logFormat: vars.LOG_FORMAT,
    workers:
      vars.WORKERS === 'auto' ? availableParallelism() : Number(vars.WORKERS),
    dbPoolSize: vars.DB_POOL_SIZE,
    dbTimeoutMs: vars.DB_TIMEOUT_MS,
    dbPreparedStatements: vars.DB_PREPARED_STATEMENTS,
    shutdownTimeoutMs: vars.SHUTDOWN_TIMEOUT_MS,
    http: {
      headersTimeoutMs: vars.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: vars.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: vars.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: vars.HTTP_MAX_CONNECTIONS,
      minBodyBytesPerSecond: vars.HTTP_MIN_BODY_BYTES_PER_SECOND,
      bodyRateGraceMs: vars.HTTP_BODY_RATE_GRACE_MS,
    },
    bodyBudgetBytes: vars.HTTP_BODY_BUDGET_BYTES,
    initialRootToken: vars.INITIAL_ROOT_TOKEN,
    marketplaceApp:
      vars.MARKETPLACE_APP_KEY &&
      vars.MARKETPLACE_APP_SECRET &&
      vars.MARKETPLACE_MASTER_SECRET
        ? {
            appKey: vars.MARKETPLACE_APP_KEY,
            appSecret: vars.MARKETPLACE_APP_SECRET,
            masterSecret: vars.MARKETPLACE_MASTER_SECRET,
            name: vars.MARKETPLACE_APP_NAME,
          }
        : undefined,
    marketplace: {
      filesPublicBaseUrl: vars.FILES_PUBLIC_BASE_URL?.replace(/\/+$/, ''),
      tokenLifetimeDays: vars.MARKETPLACE_TOKEN_LIFETIME_DAYS,
      maxUploadBytes: vars.MARKETPLACE_MAX_UPLOAD_BYTES,
      maxBodyBytes: vars.MARKETPLACE_MAX_BODY_BYTES,
      loginMaxFailures: vars.MARKETPLACE_LOGIN_MAX_FAILURES,
      loginLockSeconds: vars.MARKETPLACE_LOGIN_LOCK_SECONDS,
      sessionCacheSeconds: vars.MARKETPLACE_SESSION_CACHE_SECONDS,
      maxCollections: vars.MARKETPLACE_MAX_COLLECTIONS,
      maxSchemaBytes: vars.MARKETPLACE_MAX_SCHEMA_BYTES,
      mailPerAddressPerHour: vars.MARKETPLACE_MAIL_PER_ADDRESS_PER_HOUR,
      mailPerAppPerHour: vars.MARKETPLACE_MAIL_PER_APP_PER_HOUR,
      signupsPerClientPerHour: vars.MARKETPLACE_SIGNUPS_PER_CLIENT_PER_HOUR,
      mfaEncryptionKey: vars.MARKETPLACE_MFA_ENCRYPTION_KEY,
      manageEncryptionKey: vars.MARKETPLACE_MANAGE_ENCRYPTION_KEY,
    },
    events: { writeToken: vars.EVENTS_WRITE_TOKEN },
    metricsToken: vars.METRICS_TOKEN,
    alerts: {
      smtpUrl: vars.SMTP_URL,
      from: vars.ALERTS_FROM,
      allowLocalTargets: vars.ALERTS_ALLOW_LOCAL_TARGETS,
      retryDelaysSeconds: vars.ALERTS_RETRY_DELAYS_SECONDS,
      pollSeconds: vars.ALERTS_POLL_SECONDS,
      encryptionKey: vars.ALERTS_ENCRYPTION_KEY,
    },
    errorTracking: {
      retentionDays: vars.ERROR_TRACKING_RETENTION_DAYS,
      retentionIntervalMinutes: vars.ERROR_TRACKING_RETENTION_INTERVAL_MINUTES,
      rateLimitPerMinute: vars.ERROR_TRACKING_RATE_LIMIT_PER_MINUTE,
      maxBodyBytes: vars.ERROR_TRACKING_MAX_BODY_BYTES,
      maxEnvelopeBytes: vars.ERROR_TRACKING_MAX_ENVELOPE_BYTES,
      maxEnvelopeItems: vars.ERROR_TRACKING_MAX_ENVELOPE_ITEMS,
      maxEventBytes: vars.ERROR_TRACKING_MAX_EVENT_BYTES,
      maxAttachmentBytes: vars.ERROR_TRACKING_MAX_ATTACHMENT_BYTES,
      maxProjectAttachmentBytes:
        vars.ERROR_TRACKING_MAX_PROJECT_ATTACHMENT_BYTES,
      maxArtifactBytes: vars.ERROR_TRACKING_MAX_ARTIFACT_BYTES,
      spoolMaxBytes: vars.ERROR_TRACKING_SPOOL_MAX_BYTES,
      sessionMinutes: vars.ERROR_TRACKING_SESSION_MINUTES,
      signInMaxFailures: vars.ERROR_TRACKING_SIGN_IN_MAX_FAILURES,
      signInLockSeconds: vars.ERROR_TRACKING_SIGN_IN_LOCK_SECONDS,
    },
  };
}
