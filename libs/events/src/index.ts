export { EventsModule } from './lib/events.module';
export type { EventsModuleOptions } from './lib/common/events.options';
export {
  EVENTS_DATA_SOURCE,
  EVENTS_SCHEMA,
} from './lib/common/events.constants';
export { eventsDataSourceOptions } from './lib/persistence/events.data-source-options';
export { eventsHttpErrorFormat } from './lib/common/events.http-error-format';
export { EVENTS_ERROR_HTTP_STATUS } from './lib/common/events-error.http-map';
export { EventsError, EventsErrorCode } from './lib/common/events.errors';
export { EVENTS_SECURITY_SCHEMES } from './lib/http/openapi';
