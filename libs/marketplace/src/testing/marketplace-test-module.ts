import type { DynamicModule, ModuleMetadata, Provider } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { TestingModule } from '@nestjs/testing';
import { TypeOrmModule, getDataSourceToken } from '@nestjs/typeorm';
import { Sql } from '@quitanda/database';
import { CLOCK, systemClock } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';
import type { DataSource } from 'typeorm';

import {
  DEFAULT_LOGIN_LOCK_SECONDS,
  DEFAULT_SESSION_CACHE_SECONDS,
  DEFAULT_LOGIN_MAX_FAILURES,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_UPLOAD_BYTES,
  DEFAULT_TOKEN_LIFETIME_DAYS,
  MARKETPLACE_DATA_SOURCE,
  MARKETPLACE_OPTIONS,
} from '../lib/common/marketplace.constants';
import type { MarketplaceModuleOptions } from '../lib/common/marketplace.options';
import { MarketplaceDatabase } from '../lib/persistence/marketplace-database';
import { marketplaceDataSourceOptions } from '../lib/persistence/marketplace.data-source-options';

export const TEST_OPTIONS: MarketplaceModuleOptions = {
  trustProxy: false,
  tokenLifetimeDays: DEFAULT_TOKEN_LIFETIME_DAYS,
  maxUploadBytes: DEFAULT_MAX_UPLOAD_BYTES,
  maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
  loginMaxFailures: DEFAULT_LOGIN_MAX_FAILURES,
  loginLockSeconds: DEFAULT_LOGIN_LOCK_SECONDS,
  sessionCacheSeconds: DEFAULT_SESSION_CACHE_SECONDS,
};

/** What a spec wires: modules of the context, and providers of its own. */
export interface TestModuleParts {
  readonly imports?: ModuleMetadata['imports'];
  readonly providers?: Provider[];
}

/**
 * A Nest testing module with the context's DataSource on `url`, its
 * `MarketplaceDatabase`, and the given providers, or the given modules (the
 * clock is global for them, as the gateway makes it).
 */
export function marketplaceTestModule(
  url: string,
  parts: TestModuleParts | unknown[],
  options: Partial<MarketplaceModuleOptions> = {},
  clock: Clock = systemClock,
): Promise<TestingModule> {
  const platform: DynamicModule = {
    module: class MarketplaceTestPlatformModule {},
    global: true,
    providers: [{ provide: CLOCK, useValue: clock }],
    exports: [CLOCK],
  };
  const { imports = [], providers = [] } = Array.isArray(parts)
    ? { providers: parts as Provider[] }
    : parts;
  return Test.createTestingModule({
    imports: [
      TypeOrmModule.forRoot(marketplaceDataSourceOptions(url, 4)),
      platform,
      ...imports,
    ],
    providers: [
      {
        provide: MARKETPLACE_OPTIONS,
        useValue: { ...TEST_OPTIONS, ...options },
      },
      MarketplaceDatabase,
      ...providers,
    ],
  }).compile();
}

/** The primary of the module's DataSource, for a spec's own SQL. */
export function sqlOf(module: TestingModule): Sql {
  return new Sql(
    module.get<DataSource>(getDataSourceToken(MARKETPLACE_DATA_SOURCE)),
  );
}
