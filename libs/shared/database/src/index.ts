export { contextDataSourceOptions } from './lib/context-data-source-options';
export {
  DEFAULT_DB_TIMEOUT_MS,
  DEFAULT_POOL_SIZE,
} from './lib/database-defaults';
export type { ContextDataSourceSpec } from './lib/context-data-source-options';
export { runMigrations, pendingMigrations } from './lib/migration-runner';
export {
  startEmbeddedPostgres,
  probeEmbeddedPostgres,
  hasEmbeddedDatabase,
  embeddedDatabaseUrl,
  dumpSocketOf,
} from './lib/embedded-postgres';
export { requestDump } from './lib/embedded-dump-socket';
export type { EmbeddedPostgres } from './lib/embedded-postgres';
export { isUniqueViolation, isConnectionFailure } from './lib/pg-errors';
export { Sql, poolOf, readPoolOf, hasReadReplica } from './lib/sql';
export type { SqlExecutor, LocalSettings } from './lib/sql';
export { SqlRepository, sqlRepository } from './lib/sql-repository';
export { boundedWaits } from './lib/bounded-waits';
export { namedStatements } from './lib/named-statements';
export { withClient } from './lib/with-client';
export { WriteBatches } from './lib/write-batches';
export type { WriteBatchLimits } from './lib/write-batches';
export {
  runAsCaller,
  identifyCaller,
  currentCaller,
} from './lib/read-your-writes/caller-scope';
