import { Command, CommandRunner, Option } from 'nest-commander';

import { APP_CREDENTIAL_ACCESS } from '../apps/app.types';
import type { AppCredentialAccess } from '../apps/app.types';
import { AppsService } from '../apps/apps.service';

interface CreateAppOptions {
  name?: string;
  environment?: string;
  access?: AppCredentialAccess;
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
    if (!options.name) throw new Error('--name is required');
    const created = await this.apps.create({
      name: options.name,
      environmentName: options.environment,
      appCredentialAccess: options.access,
    });
    process.stdout.write(
      `${JSON.stringify(
        {
          appKey: created.appKey,
          appSecret: created.appSecret,
          masterSecret: created.masterSecret,
          name: created.name,
        },
        null,
        2,
      )}\n`,
    );
  }

  @Option({ flags: '--name <name>', description: 'app name', required: true })
  parseName(value: string): string {
    return value;
  }

  @Option({
    flags: '--environment <name>',
    description: 'environment name (default Development)',
  })
  parseEnvironment(value: string): string {
    return value;
  }

  @Option({
    flags: '--access <level>',
    description: `what app credentials may do: ${APP_CREDENTIAL_ACCESS.join(', ')} (default read-create)`,
  })
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
      process.stdout.write(
        `${app.appKey}\t${app.name}\t${app.environmentName}\t${app.appCredentialAccess}\t${app.createdAt.toISOString()}\n`,
      );
    if (apps.length === 0) process.stdout.write('No apps.\n');
  }
}
