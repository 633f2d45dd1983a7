/** Default bound on any wait for the database (`DB_TIMEOUT_MS`). */
export const DEFAULT_DB_TIMEOUT_MS = 5_000;

/** Connections per context pool unless configured (`DB_POOL_SIZE`). */
export const DEFAULT_POOL_SIZE = 10;
