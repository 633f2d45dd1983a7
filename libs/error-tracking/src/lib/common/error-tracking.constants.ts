/** PostgreSQL schema owned by the error-tracking context. */
export const ERROR_TRACKING_SCHEMA = 'error_tracking';
/** Name of the context's TypeORM DataSource (Nest connection name). */
export const ERROR_TRACKING_DATA_SOURCE = 'error_tracking';
/** Injection token of `ErrorTrackingModuleOptions`. */
export const ERROR_TRACKING_OPTIONS = 'error-tracking:options';
/** Where Sentry SDKs send events (the DSN path prefix). */
export const COLLECTOR_PATH_PREFIX = '/api/v4/error_tracking/collector';
/** Root of GitLab's REST API. */
export const API_PREFIX = '/api/v4';
/** Largest JSON/form body the REST API reads. */
export const API_BODY_LIMIT_BYTES = 1024 * 1024;

export const MIB = 1024 * 1024;
export const DEFAULT_RETENTION_DAYS = 90;
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 6_000;
export const DEFAULT_MAX_BODY_BYTES = 100 * MIB;
export const DEFAULT_MAX_ENVELOPE_BYTES = 100 * MIB;
export const DEFAULT_MAX_EVENT_BYTES = 1 * MIB;
/** Attachment bytes stored per event; larger ones are skipped, the event kept. */
export const DEFAULT_MAX_ATTACHMENT_BYTES = 20 * MIB;
/** Attachment bytes one project may hold at once; past them new ones are skipped. */
export const DEFAULT_MAX_PROJECT_ATTACHMENT_BYTES = 1024 * MIB;
/** Items per envelope, every type counted (the contract's "Limits"). */
export const DEFAULT_MAX_ENVELOPE_ITEMS = 1_000;
export const DEFAULT_RETENTION_INTERVAL_MINUTES = 60;
/** Payload bytes the collector's spool holds at most (1 GiB). */
export const DEFAULT_SPOOL_MAX_BYTES = 1024 * MIB;

/**
 * How far after its arrival an event's timestamp may be (a later one is
 * replaced by the arrival): every stored event's `received_at` is at least
 * its `timestamp` minus this, which retention and reads prune partitions by.
 */
export const EVENT_MAX_FUTURE_MS = 60_000;

/** GitLab's pagination defaults. */
export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

/** Access levels (GitLab's numbers). */
export enum AccessLevel {
  Guest = 10,
  Reporter = 20,
  Developer = 30,
  Maintainer = 40,
  Owner = 50,
}

export const ACCESS_LEVELS: readonly number[] = [10, 20, 30, 40, 50];

/** Root of the part of Sentry's web API that sentry-cli calls. */
export const SENTRY_API_PREFIX = '/api/0';
export const DEFAULT_MAX_ARTIFACT_BYTES = 50 * MIB;

/** About 1 min, 5 min, 30 min, 2 h, 6 h (the contract's schedule). */
export const DEFAULT_RETRY_DELAYS_SECONDS: readonly number[] = [
  60, 300, 1_800, 7_200, 21_600,
];
export const DEFAULT_ALERTS_POLL_SECONDS = 10;
