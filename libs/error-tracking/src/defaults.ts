// The defaults of the context's settings, as an entry point of its own
// (`@quitanda/error-tracking/defaults`) that imports nothing: the gateway's
// environment schema reads them in every process, the CLI included, which
// must not load the whole context (Nest, TypeORM, its services) to print a
// number.
export {
  DEFAULT_ALERTS_POLL_SECONDS,
  DEFAULT_RETRY_DELAYS_SECONDS,
  DEFAULT_RETENTION_DAYS,
  DEFAULT_RATE_LIMIT_PER_MINUTE,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_ENVELOPE_BYTES,
  DEFAULT_MAX_ENVELOPE_ITEMS,
  DEFAULT_MAX_EVENT_BYTES,
  DEFAULT_MAX_ATTACHMENT_BYTES,
  DEFAULT_MAX_PROJECT_ATTACHMENT_BYTES,
  DEFAULT_RETENTION_INTERVAL_MINUTES,
  DEFAULT_MAX_ARTIFACT_BYTES,
  DEFAULT_SPOOL_MAX_BYTES,
} from './lib/common/error-tracking.constants';
