export {
  ErrorTrackingModule,
  bootstrapErrorTracking,
  retiredErrorTrackingCredentials,
} from './lib/composition/error-tracking.module';
export { ErrorTrackingCliModule } from './lib/cli/error-tracking-cli.module';
export type {
  AlertsOptions,
  ErrorTrackingModuleOptions,
} from './lib/common/error-tracking.options';
export {
  ERROR_TRACKING_DATA_SOURCE,
  ERROR_TRACKING_SCHEMA,
} from './lib/common/error-tracking.constants';
export * from './defaults';
export { errorTrackingDataSourceOptions } from './lib/persistence/error-tracking.data-source-options';
export { errorTrackingHttpErrorFormat } from './lib/composition/error-tracking.http-error-format';
export { ERROR_TRACKING_ERROR_HTTP_STATUS } from './lib/common/error-tracking-error.http-map';
export {
  ErrorTrackingError,
  ErrorTrackingErrorCode,
} from './lib/common/error-tracking.errors';
export { ERROR_TRACKING_SECURITY_SCHEMES } from './lib/http/openapi';
