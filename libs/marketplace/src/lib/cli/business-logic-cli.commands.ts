import { Injectable } from '@nestjs/common';
import { Command } from 'nest-commander';
import {
  CliOption,
  printJson,
  printLine,
  readSecret,
  requireOptions,
} from '@quitanda/cli';

import { AppsService } from '../apps/apps.service';
import { BusinessLogicConfig } from '../business-logic/business-logic-config';
import { FlexClient } from '../business-logic/flex-client';
import { AppCommand, oneName } from './app-command';

interface FlexOptions {
  app?: string;
  url?: string;
  timeoutMs?: number;
  service?: string;
  function?: string;
  endpoint?: string;
  hook?: string;
  data?: string;
}

function noArguments(args: readonly string[], command: string): void {
  if (args.length > 0)
    throw new Error(
      `Unexpected argument "${args[0]}": ${command} takes options only`,
    );
}

/** `--hook offers.onPreSave`: the collection and the hook. */
function hookOf(value: string): [string, string] {
  const dot = value.lastIndexOf('.');
  if (dot <= 0)
    throw new Error('--hook is <collection>.<hook>, e.g. offers.onPreSave');
  return [value.slice(0, dot), value.slice(dot + 1)];
}

/** Exactly one of --endpoint, --hook and --data: what is (un)bound. */
function boundThing(options: FlexOptions): 'endpoint' | 'hook' | 'data' {
  const given = (['endpoint', 'hook', 'data'] as const).filter(
    (name) => options[name],
  );
  const [one, ...more] = given;
  if (!one || more.length > 0)
    throw new Error('Give exactly one of --endpoint, --hook and --data');
  return one;
}

/** What every business logic command shares: the app it works on. */
// Decorated so that its constructor's parameter types reach the subclasses.
@Injectable()
abstract class FlexCommand extends AppCommand {
  constructor(
    protected readonly apps: AppsService,
    protected readonly config: BusinessLogicConfig,
  ) {
    super();
  }
}

@Command({
  name: 'marketplace:flex:set-service',
  arguments: '<name>',
  description:
    "Register an app's External Flex service, or change it; its shared secret is typed at a prompt or read from standard input",
})
export class SetFlexServiceCommand extends FlexCommand {
  async run(args: string[], options: FlexOptions): Promise<void> {
    const name = oneName(
      args,
      'marketplace:flex:set-service --app <appKey> <name> --url <url> [--timeout-ms <ms>]',
    );
    requireOptions(options, 'url');
    const appKey = await this.appKeyOf(options);
    await this.config.setService(appKey, {
      name,
      url: options.url,
      sharedSecret: await readSecret('Shared secret'),
      timeoutMs: options.timeoutMs,
    });
    printLine(`Flex service ${name} of ${appKey} set.`);
  }

  @CliOption('--url <url>', "the service's base URL", true)
  parseUrl(value: string): string {
    return value;
  }

  @CliOption('--timeout-ms <ms>', 'how long one call may take (default 2000)')
  parseTimeout(value: string): number {
    return Number(value);
  }
}

@Command({
  name: 'marketplace:flex:remove-service',
  arguments: '<name>',
  description: 'Remove a Flex service and what is bound to it',
})
export class RemoveFlexServiceCommand extends FlexCommand {
  async run(args: string[], options: FlexOptions): Promise<void> {
    const name = oneName(
      args,
      'marketplace:flex:remove-service --app <appKey> <name>',
    );
    const appKey = await this.appKeyOf(options);
    await this.config.removeService(appKey, name);
    printLine(`Flex service ${name} of ${appKey} removed.`);
  }
}

@Command({
  name: 'marketplace:flex:show',
  description:
    "Show an app's Flex services with their health, and its endpoints, hooks and FlexData collections, as JSON",
})
export class ShowBusinessLogicCommand extends AppCommand {
  constructor(
    protected readonly apps: AppsService,
    private readonly config: BusinessLogicConfig,
    private readonly client: FlexClient,
  ) {
    super();
  }

  async run(args: string[], options: FlexOptions): Promise<void> {
    noArguments(args, 'marketplace:flex:show');
    const appKey = await this.appKeyOf(options);
    const view = await this.config.view(appKey);
    const services = [];
    for (const service of view.services)
      services.push({
        ...service,
        health: await this.client.health(
          await this.config.service(appKey, service.name),
        ),
      });
    printJson({ ...view, services });
  }
}

@Command({
  name: 'marketplace:flex:bind',
  description:
    'Run a Flex function for a custom endpoint (--endpoint <name>) or a collection hook (--hook <collection>.<hook>), or serve a collection from a service object (--data <collection>)',
})
export class BindFlexCommand extends FlexCommand {
  async run(args: string[], options: FlexOptions): Promise<void> {
    noArguments(args, 'marketplace:flex:bind');
    requireOptions(options, 'service', 'function');
    const appKey = await this.appKeyOf(options);
    const target = { service: options.service, handler: options.function };
    const thing = boundThing(options);
    if (thing === 'endpoint')
      await this.config.setEndpoint(appKey, options.endpoint ?? '', target);
    else if (thing === 'data')
      await this.config.setDataCollection(appKey, options.data ?? '', target);
    else {
      const [collection, hook] = hookOf(options.hook ?? '');
      await this.config.setHook(appKey, collection, hook, target);
    }
    printLine('Bound.');
  }

  @CliOption('--service <name>', 'the Flex service', true)
  parseService(value: string): string {
    return value;
  }

  @CliOption(
    '--function <name>',
    'the Flex function (with --data: the service object)',
    true,
  )
  parseFunction(value: string): string {
    return value;
  }

  @CliOption('--endpoint <name>', 'a custom endpoint')
  parseEndpoint(value: string): string {
    return value;
  }

  @CliOption(
    '--hook <collection.hook>',
    'a collection hook, e.g. offers.onPreSave',
  )
  parseHook(value: string): string {
    return value;
  }

  @CliOption('--data <collection>', 'a FlexData collection')
  parseData(value: string): string {
    return value;
  }
}

@Command({
  name: 'marketplace:flex:unbind',
  description:
    'Unbind a custom endpoint (--endpoint), a collection hook (--hook <collection>.<hook>) or a FlexData collection (--data)',
})
export class UnbindFlexCommand extends FlexCommand {
  async run(args: string[], options: FlexOptions): Promise<void> {
    noArguments(args, 'marketplace:flex:unbind');
    const appKey = await this.appKeyOf(options);
    const thing = boundThing(options);
    if (thing === 'endpoint')
      await this.config.removeEndpoint(appKey, options.endpoint ?? '');
    else if (thing === 'data')
      await this.config.removeDataCollection(appKey, options.data ?? '');
    else {
      const [collection, hook] = hookOf(options.hook ?? '');
      await this.config.removeHook(appKey, collection, hook);
    }
    printLine('Unbound.');
  }

  @CliOption('--endpoint <name>', 'a custom endpoint')
  parseEndpoint(value: string): string {
    return value;
  }

  @CliOption('--hook <collection.hook>', 'a collection hook')
  parseHook(value: string): string {
    return value;
  }

  @CliOption('--data <collection>', 'a FlexData collection')
  parseData(value: string): string {
    return value;
  }
}

export const BUSINESS_LOGIC_COMMANDS = [
  SetFlexServiceCommand,
  RemoveFlexServiceCommand,
  ShowBusinessLogicCommand,
  BindFlexCommand,
  UnbindFlexCommand,
];
