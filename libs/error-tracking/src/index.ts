export {
  ErrorTrackingModule,
  bootstrapErrorTracking,
} from './lib/error-tracking.module';
export { ErrorTrackingCliModule } from './lib/cli/error-tracking-cli.module';
export type { ErrorTrackingModuleOptions } from './lib/error-tracking.options';
export type { AlertsOptions } from './lib/alerts/alert.types';
export {
  DEFAULT_ALERTS_POLL_SECONDS,
  DEFAULT_RETRY_DELAYS_SECONDS,
} from './lib/alerts/alert.types';
export {
  ERROR_TRACKING_DATA_SOURCE,
  ERROR_TRACKING_SCHEMA,
  DEFAULT_RETENTION_DAYS,
  DEFAULT_RATE_LIMIT_PER_MINUTE,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_ENVELOPE_BYTES,
  DEFAULT_MAX_ENVELOPE_ITEMS,
  DEFAULT_MAX_EVENT_BYTES,
  DEFAULT_RETENTION_INTERVAL_MINUTES,
  DEFAULT_MAX_ARTIFACT_BYTES,
} from './lib/error-tracking.constants';
export { errorTrackingDataSourceOptions } from './lib/persistence/error-tracking.data-source-options';
export { errorTrackingHttpErrorFormat } from './lib/error-tracking.http-error-format';
export { ERROR_TRACKING_ERROR_HTTP_STATUS } from './lib/error-tracking-error.http-map';
export {
  ErrorTrackingError,
  ErrorTrackingErrorCode,
} from './lib/error-tracking.errors';
export { ERROR_TRACKING_SECURITY_SCHEMES } from './lib/http/openapi';
