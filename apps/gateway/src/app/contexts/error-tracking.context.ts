import { join } from 'node:path';

import {
  ERROR_TRACKING_DATA_SOURCE,
  ERROR_TRACKING_SECURITY_SCHEMES,
  ErrorTrackingCliModule,
  ErrorTrackingModule,
  bootstrapErrorTracking,
  errorTrackingDataSourceOptions,
  errorTrackingHttpErrorFormat,
  retiredErrorTrackingCredentials,
} from '@quitanda/error-tracking';
import type { ErrorTrackingModuleOptions } from '@quitanda/error-tracking';

import { recordInitialCredentials } from '../bootstrap/initial-credentials';
import type { GatewayConfig } from '../config/gateway-config';
import type { ContextEntry } from './context-entry';

function errorTrackingOptions(
  config: GatewayConfig,
): ErrorTrackingModuleOptions {
  const { spoolMaxBytes, ...errorTracking } = config.errorTracking;
  return {
    publicBaseUrl: config.publicBaseUrl,
    trustProxy: config.trustProxy,
    initialRootToken: config.initialRootToken,
    retireInitialCredentials: (names) =>
      recordInitialCredentials(config.dataDir, {
        generated: {},
        retired: { 'error-tracking': names },
      }),
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

export const ERROR_TRACKING_CONTEXT: ContextEntry = {
  name: 'error-tracking',
  dataSourceName: ERROR_TRACKING_DATA_SOURCE,
  dataSourceOptions: errorTrackingDataSourceOptions,
  migrationsDirectory: 'libs/error-tracking/src/lib/persistence/migrations',
  module: (config) => ErrorTrackingModule.forRoot(errorTrackingOptions(config)),
  cliModule: (config) =>
    ErrorTrackingCliModule.forRoot(errorTrackingOptions(config)),
  bootstrap: (app) => bootstrapErrorTracking(app),
  retiredCredentials: (app) => retiredErrorTrackingCredentials(app),
  errorFormat: errorTrackingHttpErrorFormat,
  securitySchemes: ERROR_TRACKING_SECURITY_SCHEMES,
};
