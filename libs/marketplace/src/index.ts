export { MarketplaceModule } from './lib/marketplace.module';
export {
  MARKETPLACE_DATA_SOURCE,
  MARKETPLACE_SCHEMA,
} from './lib/marketplace.constants';
export { marketplaceDataSourceOptions } from './lib/persistence/marketplace.data-source-options';
export { marketplaceHttpErrorFormat } from './lib/marketplace.http-error-format';
export { MARKETPLACE_ERROR_HTTP_STATUS } from './lib/marketplace-error.http-map';
export {
  MarketplaceError,
  MarketplaceErrorCode,
} from './lib/marketplace.errors';
