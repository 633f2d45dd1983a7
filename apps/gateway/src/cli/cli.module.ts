import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { embeddedDatabaseUrl } from '@quitanda/database';

import type { GatewayConfig } from '../app/config/gateway-config';
import type { ContextEntry } from '../app/contexts/context-entry';
import type { GatewayDatabase } from '../app/database/gateway-database';
import { PlatformModule } from '../app/platform.module';
import { BackupCommand, RestoreCommand } from './backup.command';
import { CLI_CONTEXTS, CLI_DATABASE, CLI_DATABASE_URL } from './cli.tokens';
import { MigrateCommand } from './migrate.command';

/**
 * The operator CLI: the platform's own commands plus the commands of
 * `contexts` (each one's `cliModule`: the served contexts the command line
 * needs), on the same configuration and database as the gateway. Without a
 * `database` (a help run) the commands are listed and none can run: the
 * contexts' connections to the database the configuration names are
 * described, never opened.
 */
@Module({})
export class CliModule {
  static forRoot(
    config: GatewayConfig,
    database: GatewayDatabase | undefined,
    contexts: readonly ContextEntry[],
  ): DynamicModule {
    const databaseUrl =
      database?.url ??
      config.databaseUrl ??
      embeddedDatabaseUrl(config.dataDir);
    return {
      module: CliModule,
      imports: [
        PlatformModule.forRoot(config),
        ...contexts.flatMap((entry) =>
          entry.cliModule
            ? [
                TypeOrmModule.forRoot({
                  ...entry.dataSourceOptions(databaseUrl, 2),
                  manualInitialization: !database,
                }),
                entry.cliModule(config),
              ]
            : [],
        ),
      ],
      providers: [
        { provide: CLI_DATABASE_URL, useValue: databaseUrl },
        { provide: CLI_DATABASE, useValue: database ?? null },
        { provide: CLI_CONTEXTS, useValue: contexts },
        MigrateCommand,
        BackupCommand,
        RestoreCommand,
      ],
    };
  }
}
