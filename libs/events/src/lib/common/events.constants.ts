/** PostgreSQL schema owned by the events context. */
export const EVENTS_SCHEMA = 'events';
/** Name of the context's TypeORM DataSource (Nest connection name). */
export const EVENTS_DATA_SOURCE = 'events';
/** Injection token of `EventsModuleOptions`. */
export const EVENTS_OPTIONS = 'events:options';
/** Largest request body the events API reads. */
export const EVENTS_BODY_LIMIT_BYTES = 64 * 1024;
export const TITLE_MAX_LENGTH = 200;
export const DESCRIPTION_MAX_LENGTH = 10_000;
export const LIST_DEFAULT_LIMIT = 20;
export const LIST_MAX_LIMIT = 100;
