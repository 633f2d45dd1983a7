import { buildInfo } from './app/version/build-info';

/** An error commander has already written to stderr: only its exit code is left. */
class Reported extends Error {
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
  }
}

/**
 * `npm run cli -- <command>`: what an operator does without HTTP. Uses
 * DATABASE_URL, or the embedded database (attaching to a running gateway's
 * if there is one).
 */
async function main(): Promise<void> {
  const { version, commit } = buildInfo();
  const versionLine = `quitanda ${version} (commit ${commit})`;
  const first = process.argv[2];
  // Answered before any database is opened (or, embedded, created).
  if (first === '--version' || first === '-V') {
    process.stdout.write(`${versionLine}\n`);
    return;
  }
  // Loaded only now: Nest and TypeORM take a second or more to load, which
  // `--version` does without; of the contexts, only the command's.
  await import('reflect-metadata');
  const { CommandFactory } = await import('nest-commander');
  const { loadDotEnv } = await import('./app/config/env-file');
  const { ConfigurationError } = await import('./app/config/env.schema');
  const { loadConfig } = await import('./app/config/gateway-config');
  const { databaseDescription, openGatewayDatabase } =
    await import('./app/database/gateway-database');
  const { CliModule } = await import('./cli/cli.module');
  const { plainMessage } = await import('./cli/plain-message');
  const { contextsForCommand, createsDatabase, runsCommand } =
    await import('./cli/cli-contexts');
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
  const contexts = await contextsForCommand(first, config);
  // Help, or a name no command has, needs no database (nor creates one).
  const database = runsCommand(process.argv.slice(2))
    ? await openGatewayDatabase(config, {
        attach: true,
        create: createsDatabase(first),
      })
    : undefined;
  try {
    await CommandFactory.run(CliModule.forRoot(config, database, contexts), {
      logger: ['error', 'warn'],
      version: versionLine,
      errorHandler: (error) => {
        // Commander has already printed its own errors (unknown option,
        // missing argument) to stderr; --help exits with 0. Thrown, so that
        // the database below is closed before the process ends.
        throw new Reported((error as { exitCode?: number }).exitCode ?? 1);
      },
      serviceErrorHandler: (error) => {
        // Commander runs the errorHandler inside its parse, so what it
        // threw arrives here: passed on, not reported a second time.
        if (error instanceof Reported) throw error;
        // PostgreSQL's undefined_table: a database nothing has migrated,
        // most often not the gateway's (a mistyped DATA_DIR or URL).
        const hint =
          (error as { code?: string }).code === '42P01'
            ? ` (${databaseDescription(config)} has no Quitanda tables: if it is not the gateway's, ` +
              "set DATA_DIR to the gateway's folder or DATABASE_URL to its server; " +
              'a new database is set up by `npm run migrate`)'
            : '';
        process.stderr.write(`${plainMessage(error)}${hint}\n`);
        process.exitCode = 1;
      },
    });
  } finally {
    await database?.close();
  }
}

main().catch((error: unknown) => {
  if (error instanceof Reported) {
    process.exitCode = error.exitCode;
    return;
  }
  process.stderr.write(
    `${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
