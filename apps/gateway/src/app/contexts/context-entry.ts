import type { DynamicModule, INestApplicationContext } from '@nestjs/common';
import type { SecuritySchemeObject } from '@nestjs/swagger';
import type { HttpErrorFormat } from '@quitanda/kernel';
import type { NextFunction, Request, Response } from 'express';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';

import type { ContextName } from '../config/env.schema';
import type { GatewayConfig } from '../config/gateway-config';

/**
 * Everything the gateway and the workspace tools need to know about one
 * bounded context (one `<name>.context.ts` each, listed in the catalog).
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
  /**
   * Names of the credentials it recorded at first boot that no longer work
   * (a generated password since replaced): removed from the file, so that
   * neither it nor the first screen names them any more.
   */
  retiredCredentials?(app: INestApplicationContext): Promise<readonly string[]>;
  /**
   * Runs on every request before routing (after logging and metrics): a
   * context's path aliases, which must change the URL the router sees.
   */
  readonly beforeRouting?: (
    req: Request,
    res: Response,
    next: NextFunction,
  ) => void;
  readonly errorFormat: HttpErrorFormat;
  /** The OpenAPI security schemes its operations name (unique names). */
  readonly securitySchemes: Readonly<Record<string, SecuritySchemeObject>>;
}
