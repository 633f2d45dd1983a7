/** The database URL the CLI works on (DATABASE_URL or the embedded one). */
export const CLI_DATABASE_URL = 'cli:database-url';

/** The database the CLI works on (`GatewayDatabase`), for backup and restore. */
export const CLI_DATABASE = 'cli:database';

/** The contexts (`ContextEntry[]`) this CLI run loaded for its command. */
export const CLI_CONTEXTS = 'cli:contexts';
