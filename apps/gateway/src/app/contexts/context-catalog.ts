import { join } from 'node:path';

import type { DynamicModule, INestApplicationContext } from '@nestjs/common';
import type { SecuritySchemeObject } from '@nestjs/swagger';
import {
  ERROR_TRACKING_DATA_SOURCE,
  ERROR_TRACKING_SECURITY_SCHEMES,
  ErrorTrackingCliModule,
  ErrorTrackingModule,
  bootstrapErrorTracking,
  errorTrackingDataSourceOptions,
  errorTrackingHttpErrorFormat,
} from '@quitanda/error-tracking';
import type { ErrorTrackingModuleOptions } from '@quitanda/error-tracking';
import {
  EVENTS_DATA_SOURCE,
  EVENTS_SECURITY_SCHEMES,
  EventsModule,
  eventsDataSourceOptions,
  eventsHttpErrorFormat,
} from '@quitanda/events';
import type { HttpErrorFormat } from '@quitanda/kernel';
import {
  MARKETPLACE_DATA_SOURCE,
  MARKETPLACE_SECURITY_SCHEMES,
  MarketplaceCliModule,
  MarketplaceModule,
  bootstrapMarketplace,
  marketplaceDataSourceOptions,
  marketplaceHttpErrorFormat,
} from '@quitanda/marketplace';
import type { MarketplaceModuleOptions } from '@quitanda/marketplace';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';

import type { ContextName } from '../config/env.schema';
import type { GatewayConfig } from '../config/gateway-config';

/**
 * Everything the gateway and the workspace tools need to know about one
 * bounded context. Adding a context means adding one entry here (see docs/architecture.md,
 * "Adding a context"): the migration generator reads this list too.
 */
export interface ContextEntry {
  readonly name: ContextName;
  /** Nest/TypeORM connection name of the context's DataSource. */
  readonly dataSourceName: string;
  dataSourceOptions(
    url: string,
    poolSize?: number,
    readUrl?: string,
  ): PostgresConnectionOptions;
  /** Where `npm run migration:generate` writes the context's migrations. */
  readonly migrationsDirectory: string;
  module(config: GatewayConfig): DynamicModule;
  /** The context's operator commands (nest-commander), if it has any. */
  cliModule?(config: GatewayConfig): DynamicModule;
  /**
   * First-boot work once the application is up: make sure configured
   * credentials exist and, on an empty database, generate demo ones. Returns
   * the generated secrets (recorded in DATA_DIR/initial-credentials.json).
   */
  bootstrap?(
    app: INestApplicationContext,
  ): Promise<Readonly<Record<string, string>> | undefined>;
  readonly errorFormat: HttpErrorFormat;
  /** The OpenAPI security schemes its operations name (unique names). */
  readonly securitySchemes: Readonly<Record<string, SecuritySchemeObject>>;
}

function errorTrackingOptions(
  config: GatewayConfig,
): ErrorTrackingModuleOptions {
  const { spoolMaxBytes, ...errorTracking } = config.errorTracking;
  return {
    publicBaseUrl: config.publicBaseUrl,
    trustProxy: config.trustProxy,
    initialRootToken: config.initialRootToken,
    ...errorTracking,
    // The embedded database runs in this process: no outage to spool through.
    spool: config.databaseUrl
      ? {
          path: join(config.dataDir, 'spool', 'collector.sqlite'),
          maxBytes: spoolMaxBytes,
          waitMs: config.dbTimeoutMs,
        }
      : undefined,
    alerts: config.alerts,
  };
}

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

export const CONTEXT_CATALOG: readonly ContextEntry[] = [
  {
    name: 'marketplace',
    dataSourceName: MARKETPLACE_DATA_SOURCE,
    dataSourceOptions: marketplaceDataSourceOptions,
    migrationsDirectory: 'libs/marketplace/src/lib/persistence/migrations',
    module: (config) => MarketplaceModule.forRoot(marketplaceOptions(config)),
    cliModule: (config) =>
      MarketplaceCliModule.forRoot(marketplaceOptions(config)),
    bootstrap: (app) => bootstrapMarketplace(app),
    errorFormat: marketplaceHttpErrorFormat,
    securitySchemes: MARKETPLACE_SECURITY_SCHEMES,
  },
  {
    name: 'events',
    dataSourceName: EVENTS_DATA_SOURCE,
    dataSourceOptions: eventsDataSourceOptions,
    migrationsDirectory: 'libs/events/src/lib/persistence/migrations',
    module: (config) =>
      EventsModule.forRoot({ writeToken: config.events.writeToken }),
    errorFormat: eventsHttpErrorFormat,
    securitySchemes: EVENTS_SECURITY_SCHEMES,
  },
  {
    name: 'error-tracking',
    dataSourceName: ERROR_TRACKING_DATA_SOURCE,
    dataSourceOptions: errorTrackingDataSourceOptions,
    migrationsDirectory: 'libs/error-tracking/src/lib/persistence/migrations',
    module: (config) =>
      ErrorTrackingModule.forRoot(errorTrackingOptions(config)),
    cliModule: (config) =>
      ErrorTrackingCliModule.forRoot(errorTrackingOptions(config)),
    bootstrap: (app) => bootstrapErrorTracking(app),
    errorFormat: errorTrackingHttpErrorFormat,
    securitySchemes: ERROR_TRACKING_SECURITY_SCHEMES,
  },
];

/** The catalog entries this process serves (`CONTEXTS`). */
export function activeContexts(config: GatewayConfig): ContextEntry[] {
  return CONTEXT_CATALOG.filter((entry) => config.contexts.has(entry.name));
}

/** Every context's DataSource options, to migrate a database for tests. */
export function migrationTargets(): Array<
  (url: string) => PostgresConnectionOptions
> {
  return CONTEXT_CATALOG.map(
    (entry) => (url: string) => entry.dataSourceOptions(url, 2),
  );
}
