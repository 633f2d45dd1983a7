export {
  MarketplaceModule,
  MarketplaceCliModule,
  bootstrapMarketplace,
} from './lib/marketplace.module';
export type {
  MarketplaceModuleOptions,
  ConfiguredApp,
} from './lib/common/marketplace.options';
export {
  MARKETPLACE_DATA_SOURCE,
  MARKETPLACE_SCHEMA,
  DEFAULT_TOKEN_LIFETIME_DAYS,
  DEFAULT_MAX_UPLOAD_BYTES,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_LOGIN_MAX_FAILURES,
  DEFAULT_LOGIN_LOCK_SECONDS,
  DEFAULT_SESSION_CACHE_SECONDS,
  DEFAULT_MAX_COLLECTIONS,
  DEFAULT_MAX_SCHEMA_BYTES,
} from './lib/common/marketplace.constants';
export { PRODUCE_DEFINITION } from './lib/collections/produce-definition';
export { marketplaceDataSourceOptions } from './lib/persistence/marketplace.data-source-options';
export { marketplaceHttpErrorFormat } from './lib/common/marketplace.http-error-format';
export { MARKETPLACE_ERROR_HTTP_STATUS } from './lib/common/marketplace-error.http-map';
export {
  MarketplaceError,
  MarketplaceErrorCode,
} from './lib/common/marketplace.errors';
export { MARKETPLACE_SECURITY_SCHEMES } from './lib/http/kinvey-api.decorators';
