/** The database URL the CLI works on (DATABASE_URL or the embedded one). */
export const CLI_DATABASE_URL = 'cli:database-url';
