// The defaults of the database settings, as an entry point of its own
// (`@quitanda/database/defaults`) that imports nothing: the gateway's
// environment schema reads them in every process, the cluster's primary
// included, which must not load pg, TypeORM and Nest to print a number.
export {
  DEFAULT_DB_TIMEOUT_MS,
  DEFAULT_POOL_SIZE,
} from './lib/database-defaults';
