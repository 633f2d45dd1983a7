import { CommandRunner } from 'nest-commander';
import { CliOption, requireOptions } from '@quitanda/cli';

import type { AppsService } from '../apps/apps.service';

/** The one positional name a command takes, else its usage. */
export function oneName(args: readonly string[], usage: string): string {
  const [name, ...rest] = args;
  if (!name || rest.length > 0)
    throw new Error(`Usage: npm run cli -- ${usage}`);
  return name;
}

/** A command on one app: `--app <appKey>`, checked to exist. */
export abstract class AppCommand extends CommandRunner {
  protected abstract readonly apps: AppsService;

  protected async appKeyOf(options: { app?: string }): Promise<string> {
    requireOptions(options, 'app');
    return (await this.apps.get(options.app)).appKey;
  }

  @CliOption('--app <appKey>', 'the app', true)
  parseApp(value: string): string {
    return value;
  }
}
