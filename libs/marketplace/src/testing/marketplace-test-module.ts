import { Test } from '@nestjs/testing';
import type { TestingModule } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CLOCK, systemClock } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import {
  DEFAULT_LOGIN_LOCK_SECONDS,
  DEFAULT_SESSION_CACHE_SECONDS,
  DEFAULT_LOGIN_MAX_FAILURES,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_UPLOAD_BYTES,
  DEFAULT_TOKEN_LIFETIME_DAYS,
  MARKETPLACE_OPTIONS,
} from '../lib/marketplace.constants';
import type { MarketplaceModuleOptions } from '../lib/marketplace.options';
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

/**
 * A Nest testing module with the context's DataSource on `url`, its
 * `MarketplaceDatabase`, and the given providers.
 */
export function marketplaceTestModule(
  url: string,
  providers: unknown[],
  options: Partial<MarketplaceModuleOptions> = {},
  clock: Clock = systemClock,
): Promise<TestingModule> {
  return Test.createTestingModule({
    imports: [TypeOrmModule.forRoot(marketplaceDataSourceOptions(url, 4))],
    providers: [
      { provide: CLOCK, useValue: clock },
      {
        provide: MARKETPLACE_OPTIONS,
        useValue: { ...TEST_OPTIONS, ...options },
      },
      MarketplaceDatabase,
      ...(providers as never[]),
    ],
  }).compile();
}
