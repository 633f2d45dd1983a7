// The defaults of the context's settings, as an entry point of its own
// (`@quitanda/marketplace/defaults`) that imports nothing: the gateway's
// environment schema reads them in every process, the CLI included, which
// must not load the whole context (Nest, TypeORM, its services) to print a
// number.
export {
  DEFAULT_TOKEN_LIFETIME_DAYS,
  DEFAULT_MAX_UPLOAD_BYTES,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_LOGIN_MAX_FAILURES,
  DEFAULT_LOGIN_LOCK_SECONDS,
  DEFAULT_SESSION_CACHE_SECONDS,
  DEFAULT_MAX_COLLECTIONS,
  DEFAULT_MAX_SCHEMA_BYTES,
  DEFAULT_MAIL_PER_ADDRESS_PER_HOUR,
  DEFAULT_MAIL_PER_APP_PER_HOUR,
  DEFAULT_SIGNUPS_PER_CLIENT_PER_HOUR,
} from './lib/common/marketplace.constants';
