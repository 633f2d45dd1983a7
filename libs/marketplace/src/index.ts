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
} from './lib/common/marketplace.constants';
export * from './defaults';
export { PRODUCE_DEFINITION } from './lib/collections/produce-definition';
export { marketplaceDataSourceOptions } from './lib/persistence/marketplace.data-source-options';
export { marketplaceHttpErrorFormat } from './lib/common/marketplace.http-error-format';
export { MARKETPLACE_ERROR_HTTP_STATUS } from './lib/common/marketplace-error.http-map';
export {
  MarketplaceError,
  MarketplaceErrorCode,
} from './lib/common/marketplace.errors';
export { MARKETPLACE_SECURITY_SCHEMES } from './lib/http/kinvey-api.decorators';
export { baasAlias as marketplaceBaasAlias } from './lib/http/baas-alias';
