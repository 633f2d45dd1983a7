import {
  DEFAULT_ALERTS_POLL_SECONDS,
  DEFAULT_RETRY_DELAYS_SECONDS,
} from './error-tracking.constants';

/** What the gateway passes to `ErrorTrackingModule.forRoot` (validated env). */
export interface ErrorTrackingModuleOptions {
  /** Absolute base for URLs handed out (DSNs, web URLs); else the request's. */
  readonly publicBaseUrl?: string;
  /** Honour `X-Forwarded-Proto/Host` when deriving URLs from the request. */
  readonly trustProxy: boolean;
  /** `api` token of the admin user `root` (INITIAL_ROOT_TOKEN). */
  readonly initialRootToken?: string;
  /**
   * Removes first-boot credentials (by name) that stopped working from the
   * gateway's record of them: root's generated password once replaced.
   */
  readonly retireInitialCredentials?: (
    names: readonly string[],
  ) => Promise<void>;
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
  /**
   * Attachment bytes stored with one event (its envelope's attachment
   * items together); an attachment past them is skipped, the event kept.
   */
  readonly maxAttachmentBytes: number;
  /** Attachment bytes one project holds at most; past them new ones are skipped. */
  readonly maxProjectAttachmentBytes: number;
  /** Largest artifact bundle (source maps), as uploaded and once unzipped. */
  readonly maxArtifactBytes: number;
  /** How long a web UI session lives after sign-in. */
  readonly sessionMinutes: number;
  /** Failed sign-ins of one username after which it is refused for a while. */
  readonly signInMaxFailures: number;
  /** How long such a username is refused. */
  readonly signInLockSeconds: number;
  /**
   * The collector's durable spool for database outages; absent with the
   * embedded database (it runs in this process: it is never down while the
   * collector is up), which keeps answering 503 as before.
   */
  readonly spool?: CollectorSpoolOptions;
  /** Alerts: SMTP, retries, local targets, token key (defaults: off/safe). */
  readonly alerts?: Partial<AlertsOptions>;
}

export interface AlertsOptions {
  /** `smtp://user:pass@host:port` or `smtps://...`; unset = no e-mail. */
  readonly smtpUrl?: string;
  /** The From of alert e-mails. */
  readonly from?: string;
  /** Let hooks reach loopback, link-local and private addresses. */
  readonly allowLocalTargets: boolean;
  /** Waits between attempts; one more attempt than entries, then failed. */
  readonly retryDelaysSeconds: readonly number[];
  /** How often each replica looks for due deliveries. */
  readonly pollSeconds: number;
  /** Key material for webhook secret tokens; unset = tokens refused. */
  readonly encryptionKey?: string;
}

export const DEFAULT_ALERTS_OPTIONS: AlertsOptions = {
  allowLocalTargets: false,
  retryDelaysSeconds: DEFAULT_RETRY_DELAYS_SECONDS,
  pollSeconds: DEFAULT_ALERTS_POLL_SECONDS,
};

export interface CollectorSpoolOptions {
  /** The SQLite file (`DATA_DIR/spool/collector.sqlite`). */
  readonly path: string;
  /** Payload bytes the spool may hold; past them, 503 (`ERROR_TRACKING_SPOOL_MAX_BYTES`). */
  readonly maxBytes: number;
  /** How long a request waits for its commit before it is spooled (`DB_TIMEOUT_MS`). */
  readonly waitMs: number;
}
