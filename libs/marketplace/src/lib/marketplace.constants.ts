/** PostgreSQL schema owned by the marketplace context. */
export const MARKETPLACE_SCHEMA = 'marketplace';
/** Name of the context's TypeORM DataSource (Nest connection name). */
export const MARKETPLACE_DATA_SOURCE = 'marketplace';
