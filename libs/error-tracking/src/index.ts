export { ErrorTrackingModule } from './lib/error-tracking.module';
export {
  ERROR_TRACKING_DATA_SOURCE,
  ERROR_TRACKING_SCHEMA,
} from './lib/error-tracking.constants';
export { errorTrackingDataSourceOptions } from './lib/persistence/error-tracking.data-source-options';
export { errorTrackingHttpErrorFormat } from './lib/error-tracking.http-error-format';
export { ERROR_TRACKING_ERROR_HTTP_STATUS } from './lib/error-tracking-error.http-map';
export {
  ErrorTrackingError,
  ErrorTrackingErrorCode,
} from './lib/error-tracking.errors';
