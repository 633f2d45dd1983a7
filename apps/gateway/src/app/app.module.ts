import { Module } from '@nestjs/common';
import type { DynamicModule, OnModuleInit } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { Inject } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { TypeOrmModuleOptions } from '@nestjs/typeorm';
import { boundedWaits, namedStatements } from '@quitanda/database';
import { RequestValidationPipe } from '@quitanda/http';
import { METRICS_REGISTRY } from '@quitanda/kernel';
import type { Registry } from 'prom-client';

import type { GatewayConfig } from './config/gateway-config';
import { CONTEXT_CATALOG, activeContexts } from './contexts/context-catalog';
import type { ContextEntry } from './contexts/context-catalog';
import {
  CONTEXT_DATA_SOURCES,
  contextDataSourcesProvider,
} from './contexts/context-data-sources';
import type { NamedDataSource } from './contexts/context-data-sources';
import { HealthController } from './health/health.controller';
import { ReadinessService } from './health/readiness.service';
import { HTTP_ERROR_FORMATS, HttpErrorFilter } from './http/http-error.filter';
import { MetricsController } from './metrics/metrics.controller';
import { registerPoolMetrics } from './metrics/metrics';
import { PlatformModule } from './platform.module';
import { VersionController } from './version/version.controller';

export interface AppModuleOptions {
  readonly config: GatewayConfig;
  /** Where the database is: `config.databaseUrl` or the embedded server's URL. */
  readonly databaseUrl: string;
}

/**
 * A context's DataSource as the gateway serves it: every wait for the
 * database bounded by `DB_TIMEOUT_MS` (migrations and operator commands
 * use the plain options, as a long migration is no stall).
 */
function servingOptions(
  entry: ContextEntry,
  config: GatewayConfig,
  databaseUrl: string,
): TypeOrmModuleOptions {
  const options = entry.dataSourceOptions(
    databaseUrl,
    config.dbPoolSize,
    config.databaseReadUrl,
  );
  // The embedded PGlite runs in this process, one statement at a time for
  // every connection (one shared session): it cannot stall apart from the
  // process, and a statement timing out there is only queued behind others;
  // dropping its connection mid-transaction is not worth the risk to that
  // shared session. The per-request deadline still holds.
  const bounded = config.databaseUrl ? boundedWaits(config.dbTimeoutMs) : {};
  // Every connection to PGlite's socket shares its one session, so a name
  // one connection prepared would collide with another's.
  const named = namedStatements(
    Boolean(config.databaseUrl) && config.dbPreparedStatements,
  );
  return {
    ...options,
    extra: { ...options.extra, ...bounded, ...named },
    retryAttempts: 3,
    retryDelay: 1_000,
  };
}

/**
 * The gateway: platform services, one TypeORM connection and one module per
 * served context, one exception filter and one validation pipe for all.
 */
@Module({})
export class AppModule implements OnModuleInit {
  constructor(
    @Inject(METRICS_REGISTRY) private readonly registry: Registry,
    @Inject(CONTEXT_DATA_SOURCES)
    private readonly dataSources: readonly NamedDataSource[],
  ) {}

  static forRoot({ config, databaseUrl }: AppModuleOptions): DynamicModule {
    const contexts = activeContexts(config);
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot(config),
        ...contexts.flatMap((entry) => [
          TypeOrmModule.forRoot(servingOptions(entry, config, databaseUrl)),
          entry.module(config),
        ]),
      ],
      controllers: [HealthController, MetricsController, VersionController],
      providers: [
        ReadinessService,
        contextDataSourcesProvider(contexts),
        {
          // Every context's format, served or not: a path keeps its own
          // error shape even when this replica does not serve it.
          provide: HTTP_ERROR_FORMATS,
          useValue: CONTEXT_CATALOG.map((entry) => entry.errorFormat),
        },
        { provide: APP_FILTER, useClass: HttpErrorFilter },
        { provide: APP_PIPE, useClass: RequestValidationPipe },
      ],
    };
  }

  onModuleInit(): void {
    registerPoolMetrics(this.registry, this.dataSources);
  }
}
