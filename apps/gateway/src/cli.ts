import 'reflect-metadata';

import { CommandFactory } from 'nest-commander';

import { loadDotEnv } from './app/config/env-file';
import { ConfigurationError } from './app/config/env.schema';
import { loadConfig } from './app/config/gateway-config';
import { openGatewayDatabase } from './app/database/gateway-database';
import { CliModule } from './cli/cli.module';

/**
 * `npm run cli -- <command>`: what an operator does without HTTP. Uses
 * DATABASE_URL, or the embedded database (attaching to a running gateway's
 * if there is one).
 */
async function main(): Promise<void> {
  let config;
  try {
    loadDotEnv();
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigurationError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
  const database = await openGatewayDatabase(config, { attach: true });
  try {
    await CommandFactory.run(CliModule.forRoot(config, database.url), {
      logger: ['error', 'warn'],
      errorHandler: (error) => {
        // Commander's own exits (--help, --version) carry exitCode 0.
        const code = (error as { exitCode?: number }).exitCode ?? 1;
        if (code !== 0) process.stderr.write(`${error.message}\n`);
        process.exitCode = code;
      },
      serviceErrorHandler: (error) => {
        process.stderr.write(`${error.message}\n`);
        process.exitCode = 1;
      },
    });
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
