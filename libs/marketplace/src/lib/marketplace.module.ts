import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';

/**
 * The marketplace context (Kinvey-compatible data service). Expects the
 * gateway to register the `MARKETPLACE_DATA_SOURCE` connection and `CLOCK`.
 */
@Module({})
export class MarketplaceModule {
  static forRoot(): DynamicModule {
    return { module: MarketplaceModule };
  }
}
