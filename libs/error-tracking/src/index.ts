export {
  ErrorTrackingModule,
  bootstrapErrorTracking,
} from './lib/composition/error-tracking.module';
export { ErrorTrackingCliModule } from './lib/cli/error-tracking-cli.module';
export type {
  AlertsOptions,
  ErrorTrackingModuleOptions,
} from './lib/common/error-tracking.options';
export {
  DEFAULT_ALERTS_POLL_SECONDS,
  DEFAULT_RETRY_DELAYS_SECONDS,
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
  DEFAULT_SPOOL_MAX_BYTES,
} from './lib/common/error-tracking.constants';
export { errorTrackingDataSourceOptions } from './lib/persistence/error-tracking.data-source-options';
export { errorTrackingHttpErrorFormat } from './lib/composition/error-tracking.http-error-format';
export { ERROR_TRACKING_ERROR_HTTP_STATUS } from './lib/common/error-tracking-error.http-map';
export {
  ErrorTrackingError,
  ErrorTrackingErrorCode,
} from './lib/common/error-tracking.errors';
export { ERROR_TRACKING_SECURITY_SCHEMES } from './lib/http/openapi';
