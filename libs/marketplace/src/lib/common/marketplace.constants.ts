/** PostgreSQL schema owned by the marketplace context. */
export const MARKETPLACE_SCHEMA = 'marketplace';
/** Name of the context's TypeORM DataSource (Nest connection name). */
export const MARKETPLACE_DATA_SOURCE = 'marketplace';
/** Injection token of `MarketplaceModuleOptions`. */
export const MARKETPLACE_OPTIONS = 'marketplace:options';

export const DEFAULT_TOKEN_LIFETIME_DAYS = 30;
export const DEFAULT_MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_LOGIN_MAX_FAILURES = 5;
export const DEFAULT_LOGIN_LOCK_SECONDS = 300;
/** How long a replica trusts what it read of a session token (Parse Server's 5 s). */
export const DEFAULT_SESSION_CACHE_SECONDS = 5;
/** Lifetime of signed download URLs of private files, and of upload URLs. */
export const DEFAULT_URL_TTL_SECONDS = 3600;
export const DEFAULT_MAX_COLLECTIONS = 100;
export const DEFAULT_MAX_SCHEMA_BYTES = 64 * 1024;
/** Account mail one address may get from an app in an hour, all kinds. */
export const DEFAULT_MAIL_PER_ADDRESS_PER_HOUR = 5;
/** Account mail one app may send in an hour. */
export const DEFAULT_MAIL_PER_APP_PER_HOUR = 500;
/** Signups with app credentials from one client address, per app and hour. */
export const DEFAULT_SIGNUPS_PER_CLIENT_PER_HOUR = 30;
/** Kinvey refuses queries that would return more than this without a limit. */
export const RESULT_SET_CAP = 10_000;
/** Statement timeout of queries that use regular expressions. */
export const REGEX_STATEMENT_TIMEOUT_MS = 2000;
/** Reported as `X-Kinvey-API-Version` and in the ping's `version`. */
export const SERVER_API_VERSION = '6';
export const SERVER_VERSION = '3.9.39';
