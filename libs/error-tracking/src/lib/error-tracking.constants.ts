/** PostgreSQL schema owned by the error-tracking context. */
export const ERROR_TRACKING_SCHEMA = 'error_tracking';
/** Name of the context's TypeORM DataSource (Nest connection name). */
export const ERROR_TRACKING_DATA_SOURCE = 'error_tracking';
/** Where Sentry SDKs send events (the DSN path prefix). */
export const COLLECTOR_PATH_PREFIX = '/api/v4/error_tracking/collector';
