import { Global, Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import {
  CLOCK,
  METRICS_REGISTRY,
  READINESS_DETAILS,
  ReadinessDetails,
  systemClock,
} from '@quitanda/kernel';

import { GATEWAY_CONFIG } from './config/gateway-config';
import type { GatewayConfig } from './config/gateway-config';
import { createHttpMetrics } from './metrics/metrics';
import type { HttpMetrics } from './metrics/metrics';

export const HTTP_METRICS = 'gateway:http-metrics';

/**
 * Process-wide services every context may inject: the clock, the metrics
 * registry, what readiness reports beside its checks, and the gateway
 * configuration.
 */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    const metrics = createHttpMetrics();
    return {
      module: PlatformModule,
      providers: [
        { provide: CLOCK, useValue: systemClock },
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: HTTP_METRICS, useValue: metrics satisfies HttpMetrics },
        { provide: METRICS_REGISTRY, useValue: metrics.registry },
        { provide: READINESS_DETAILS, useValue: new ReadinessDetails() },
      ],
      exports: [
        CLOCK,
        GATEWAY_CONFIG,
        HTTP_METRICS,
        METRICS_REGISTRY,
        READINESS_DETAILS,
      ],
    };
  }
}
