import {
  MARKETPLACE_DATA_SOURCE,
  MARKETPLACE_SECURITY_SCHEMES,
  MarketplaceCliModule,
  MarketplaceModule,
  bootstrapMarketplace,
  marketplaceBaasAlias,
  marketplaceDataSourceOptions,
  marketplaceHttpErrorFormat,
} from '@quitanda/marketplace';
import type { MarketplaceModuleOptions } from '@quitanda/marketplace';

import type { GatewayConfig } from '../config/gateway-config';
import type { ContextEntry } from './context-entry';

function marketplaceOptions(config: GatewayConfig): MarketplaceModuleOptions {
  return {
    publicBaseUrl: config.publicBaseUrl,
    trustProxy: config.trustProxy,
    app: config.marketplaceApp,
    ...config.marketplace,
    // Users' account mail goes through the same SMTP as alerts.
    mail: { smtpUrl: config.alerts.smtpUrl, from: config.alerts.from },
  };
}

export const MARKETPLACE_CONTEXT: ContextEntry = {
  name: 'marketplace',
  dataSourceName: MARKETPLACE_DATA_SOURCE,
  dataSourceOptions: marketplaceDataSourceOptions,
  migrationsDirectory: 'libs/marketplace/src/lib/persistence/migrations',
  module: (config) => MarketplaceModule.forRoot(marketplaceOptions(config)),
  cliModule: (config) =>
    MarketplaceCliModule.forRoot(marketplaceOptions(config)),
  bootstrap: (app) => bootstrapMarketplace(app),
  // kinvey-cli's data calls: /baas/<path> is the data API (docs/marketplace.md).
  beforeRouting: marketplaceBaasAlias,
  errorFormat: marketplaceHttpErrorFormat,
  securitySchemes: MARKETPLACE_SECURITY_SCHEMES,
};
