import type { AlertsOptions } from './alerts/alert.types';

/** What the gateway passes to `ErrorTrackingModule.forRoot` (validated env). */
export interface ErrorTrackingModuleOptions {
  /** Absolute base for URLs handed out (DSNs, web URLs); else the request's. */
  readonly publicBaseUrl?: string;
  /** Honour `X-Forwarded-Proto/Host` when deriving URLs from the request. */
  readonly trustProxy: boolean;
  /** `api` token of the admin user `root` (INITIAL_ROOT_TOKEN). */
  readonly initialRootToken?: string;
  /** Events older than this many days are deleted (default 90). */
  readonly retentionDays: number;
  /** Minutes between scheduled retention runs; 0 disables the schedule. */
  readonly retentionIntervalMinutes: number;
  /**
   * Items per minute, client key and Sentry data category (events, sessions,
   * client reports, ...); 0 disables the limit.
   */
  readonly rateLimitPerMinute: number;
  /** Largest request body as sent (compressed). */
  readonly maxBodyBytes: number;
  /** Largest envelope once decompressed. */
  readonly maxEnvelopeBytes: number;
  /** Most items in one envelope, every type counted (413 past it). */
  readonly maxEnvelopeItems: number;
  /** Largest single event once decompressed. */
  readonly maxEventBytes: number;
  /** Largest artifact bundle (source maps), as uploaded and once unzipped. */
  readonly maxArtifactBytes: number;
  /** How long a web UI session lives after sign-in. */
  readonly sessionMinutes: number;
  /** Failed sign-ins of one username after which it is refused for a while. */
  readonly signInMaxFailures: number;
  /** How long such a username is refused. */
  readonly signInLockSeconds: number;
  /** Alerts: SMTP, retries, local targets, token key (defaults: off/safe). */
  readonly alerts?: Partial<AlertsOptions>;
}
