import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import type { GatewayConfig } from '../app/config/gateway-config';
import { activeContexts } from '../app/contexts/context-catalog';
import type { GatewayDatabase } from '../app/database/gateway-database';
import { PlatformModule } from '../app/platform.module';
import { BackupCommand, RestoreCommand } from './backup.command';
import { CLI_DATABASE, CLI_DATABASE_URL } from './cli.tokens';
import { MigrateCommand } from './migrate.command';

/**
 * The operator CLI: the platform's own commands plus each served context's
 * (its `cliModule`), on the same configuration and database as the gateway.
 */
@Module({})
export class CliModule {
  static forRoot(
    config: GatewayConfig,
    database: GatewayDatabase,
  ): DynamicModule {
    const databaseUrl = database.url;
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
        { provide: CLI_DATABASE, useValue: database },
        MigrateCommand,
        BackupCommand,
        RestoreCommand,
      ],
    };
  }
}
