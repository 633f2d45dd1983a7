import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import type { GatewayConfig } from '../app/config/gateway-config';
import { activeContexts } from '../app/contexts/context-catalog';
import { PlatformModule } from '../app/platform.module';
import { CLI_DATABASE_URL } from './cli.tokens';
import { MigrateCommand } from './migrate.command';

/**
 * The operator CLI: the platform's own commands plus each served context's
 * (its `cliModule`), on the same configuration and database as the gateway.
 */
@Module({})
export class CliModule {
  static forRoot(config: GatewayConfig, databaseUrl: string): DynamicModule {
    const contexts = activeContexts(config);
    return {
      module: CliModule,
      imports: [
        PlatformModule.forRoot(config),
        ...contexts.flatMap((entry) =>
          entry.cliModule
            ? [
                TypeOrmModule.forRoot(entry.dataSourceOptions(databaseUrl, 2)),
                entry.cliModule(config),
              ]
            : [],
        ),
      ],
      providers: [
        { provide: CLI_DATABASE_URL, useValue: databaseUrl },
        MigrateCommand,
      ],
    };
  }
}
