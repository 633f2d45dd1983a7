import { Command, CommandRunner } from 'nest-commander';
import {
  CliOption,
  printJson,
  printLine,
  readSecret,
  refuseSecretArguments,
  requireOptions,
} from '@quitanda/cli';
import { hashPassword } from '@quitanda/kernel';

import { APP_CREDENTIAL_ACCESS } from '../apps/app.types';
import type { AppCredentialAccess } from '../apps/app.types';
import { AppsService } from '../apps/apps.service';
import { CredentialsRepository } from '../auth/credentials.repository';
import { KinveyImportService } from '../import/kinvey-import.service';
import { checkUserBody } from '../users/user-fields';
import { UsersRepository } from '../users/users.repository';

interface CreateAppOptions {
  name?: string;
  environment?: string;
  access?: AppCredentialAccess;
  definition?: string;
}

@Command({
  name: 'marketplace:apps:create',
  description:
    'Create a marketplace (Kinvey) app and print its key and secrets (shown once)',
})
export class CreateAppCommand extends CommandRunner {
  constructor(private readonly apps: AppsService) {
    super();
  }

  async run(_args: string[], options: CreateAppOptions): Promise<void> {
    requireOptions(options, 'name');
    const created = await this.apps.create({
      name: options.name,
      environmentName: options.environment,
      appCredentialAccess: options.access,
      definition: options.definition === 'none' ? null : options.definition,
    });
    printJson({
      appKey: created.appKey,
      appSecret: created.appSecret,
      masterSecret: created.masterSecret,
      name: created.name,
    });
  }

  @CliOption('--name <name>', 'app name', true)
  parseName(value: string): string {
    return value;
  }

  @CliOption('--environment <name>', 'environment name (default Development)')
  parseEnvironment(value: string): string {
    return value;
  }

  @CliOption(
    '--definition <name>',
    'collections the app starts with: none (the default: the operator declares them) or produce (the produce marketplace)',
  )
  parseDefinition(value: string): string {
    return value;
  }

  @CliOption(
    '--access <level>',
    `what app credentials may do: ${APP_CREDENTIAL_ACCESS.join(', ')} (default read-create)`,
  )
  parseAccess(value: string): AppCredentialAccess {
    if (!(APP_CREDENTIAL_ACCESS as readonly string[]).includes(value))
      throw new Error(
        `--access must be one of ${APP_CREDENTIAL_ACCESS.join(', ')}`,
      );
    return value as AppCredentialAccess;
  }
}

@Command({
  name: 'marketplace:apps:list',
  description: 'List marketplace apps (never their secrets)',
})
export class ListAppsCommand extends CommandRunner {
  constructor(private readonly apps: AppsService) {
    super();
  }

  async run(): Promise<void> {
    const apps = await this.apps.list();
    for (const app of apps)
      printLine(
        `${app.appKey}\t${app.name}\t${app.environmentName}\t${app.appCredentialAccess}\t${app.createdAt.toISOString()}`,
      );
    if (apps.length === 0) printLine('No apps.');
  }
}

@Command({
  name: 'marketplace:import',
  arguments: '<dir>',
  description:
    'Import a Kinvey export (user.json, _blob.json with _blob/<_id>, <collection>.json) into an app; ids, _acl and _kmd kept; safe to run again',
})
export class ImportCommand extends CommandRunner {
  constructor(private readonly importer: KinveyImportService) {
    super();
  }

  async run(args: string[], options: { app?: string }): Promise<void> {
    const [dir, ...rest] = args;
    if (!dir || rest.length > 0 || !options.app)
      throw new Error(
        'Usage: npm run cli -- marketplace:import --app <appKey> <dir>',
      );
    const report = await this.importer.importDirectory(options.app, dir, {
      progress: (file, counts) =>
        process.stderr.write(
          `${file}: ${counts.imported} imported, ${counts.unchanged} already there, ${counts.rejected} rejected\n`,
        ),
      rejected: (file, index, id, reason) =>
        process.stderr.write(
          `rejected ${file}[${index}]${typeof id === 'string' ? ` _id ${id}` : ''}: ${reason}\n`,
        ),
    });
    const files = Object.entries(report);
    process.stdout.write(
      files.length === 0
        ? `Nothing to import in ${dir}.\n`
        : files
            .map(
              ([file, counts]) =>
                `${file}\t${counts.imported} imported\t${counts.unchanged} already there\t${counts.rejected} rejected\n`,
            )
            .join(''),
    );
    if (files.some(([, counts]) => counts.rejected > 0)) process.exitCode = 2;
  }

  @CliOption('--app <appKey>', 'the app to import into', true)
  parseApp(value: string): string {
    return value;
  }
}

@Command({
  name: 'marketplace:set-password',
  description:
    "Set a marketplace user's password (typed at a prompt or read from standard input) and end their sessions",
})
export class SetPasswordCommand extends CommandRunner {
  constructor(
    private readonly users: UsersRepository,
    private readonly credentials: CredentialsRepository,
    private readonly apps: AppsService,
  ) {
    super();
  }

  async run(
    args: string[],
    options: { app?: string; username?: string },
  ): Promise<void> {
    refuseSecretArguments(args);
    requireOptions(options, 'app', 'username');
    const app = await this.apps.get(options.app);
    const user = await this.credentials.findByUsername(
      app.appKey,
      options.username,
    );
    if (!user)
      throw new Error(`No user ${options.username} in app ${app.appKey}`);
    const password = await readSecret('Password');
    checkUserBody({ username: user.username, password }, false);
    await this.users.update(
      app.appKey,
      user.id,
      user.username,
      user.doc,
      await hashPassword(password),
      new Date(),
    );
    await this.credentials.revokeAll(app.appKey, user.id);
    printLine(`Password of ${user.username} set.`);
  }

  @CliOption('--app <appKey>', 'the app', true)
  parseApp(value: string): string {
    return value;
  }

  @CliOption('--username <username>', 'whose password', true)
  parseUsername(value: string): string {
    return value;
  }
}
