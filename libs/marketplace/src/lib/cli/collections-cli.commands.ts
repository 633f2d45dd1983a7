import { readFileSync } from 'node:fs';

import { Injectable } from '@nestjs/common';
import { Command } from 'nest-commander';
import { CliOption, printJson, printLine, requireOptions } from '@quitanda/cli';

import { AppsService } from '../apps/apps.service';
import { CollectionsService } from '../app-collections/collections.service';
import { AppCommand, oneName } from './app-command';

interface CollectionOptions {
  app?: string;
  settings?: unknown;
  yes?: boolean;
}

/** `--settings '{"permissions": "private"}'` or `--settings @settings.json`. */
function parseSettings(value: string): unknown {
  const text = value.startsWith('@')
    ? readFileSync(value.slice(1), 'utf8')
    : value;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error('--settings must be JSON, or @ and a JSON file');
  }
}

/** What every collection command shares: the app it works on. */
// Decorated so that its constructor's parameter types reach the subclasses.
@Injectable()
abstract class CollectionCommand extends AppCommand {
  constructor(
    protected readonly apps: AppsService,
    protected readonly collections: CollectionsService,
  ) {
    super();
  }
}

@Command({
  name: 'marketplace:collections:list',
  description: "List an app's collections and their settings",
})
export class ListCollectionsCommand extends CollectionCommand {
  async run(_args: string[], options: CollectionOptions): Promise<void> {
    const list = await this.collections.list(await this.appKeyOf(options));
    for (const { name, settings } of list)
      printLine(`${name}\t${JSON.stringify(settings)}`);
    if (list.length === 0) printLine('No collections.');
  }
}

@Command({
  name: 'marketplace:collections:show',
  arguments: '<name>',
  description: 'Show one collection and its settings as JSON',
})
export class ShowCollectionCommand extends CollectionCommand {
  async run(args: string[], options: CollectionOptions): Promise<void> {
    const name = oneName(
      args,
      'marketplace:collections:show --app <appKey> <name>',
    );
    printJson(await this.collections.show(await this.appKeyOf(options), name));
  }
}

@Command({
  name: 'marketplace:collections:create',
  arguments: '<name>',
  description:
    'Declare a collection, with optional settings (permissions, schema, unique, references, deltaSet)',
})
export class CreateCollectionCommand extends CollectionCommand {
  async run(args: string[], options: CollectionOptions): Promise<void> {
    const name = oneName(
      args,
      'marketplace:collections:create --app <appKey> <name> [--settings <JSON or @file>]',
    );
    printJson(
      await this.collections.create(
        await this.appKeyOf(options),
        name,
        options.settings,
      ),
    );
  }

  @CliOption('--settings <json>', 'settings as JSON, or @ and a JSON file')
  parseSettings(value: string): unknown {
    return parseSettings(value);
  }
}

@Command({
  name: 'marketplace:collections:update',
  arguments: '<name>',
  description:
    "Replace a collection's settings; later writes follow them, stored records stay readable",
})
export class UpdateCollectionCommand extends CollectionCommand {
  async run(args: string[], options: CollectionOptions): Promise<void> {
    const name = oneName(
      args,
      'marketplace:collections:update --app <appKey> <name> --settings <JSON or @file>',
    );
    requireOptions(options, 'settings');
    printJson(
      await this.collections.update(
        await this.appKeyOf(options),
        name,
        options.settings,
      ),
    );
  }

  @CliOption(
    '--settings <json>',
    'settings as JSON, or @ and a JSON file',
    true,
  )
  parseSettings(value: string): unknown {
    return parseSettings(value);
  }
}

@Command({
  name: 'marketplace:collections:delete',
  arguments: '<name>',
  description: 'Delete a collection and every record of it (needs --yes)',
})
export class DeleteCollectionCommand extends CollectionCommand {
  async run(args: string[], options: CollectionOptions): Promise<void> {
    const name = oneName(
      args,
      'marketplace:collections:delete --app <appKey> <name> --yes',
    );
    if (!options.yes)
      throw new Error(
        `Deleting ${name} deletes every record of it; confirm with --yes`,
      );
    await this.collections.remove(await this.appKeyOf(options), name);
    printLine(`Collection ${name} deleted.`);
  }

  @CliOption('--yes', 'confirm deleting the collection and its records')
  parseYes(): boolean {
    return true;
  }
}

@Command({
  name: 'marketplace:collections:apply-definition',
  arguments: '<definition>',
  description:
    "Declare (or reset) the collections of a shipped definition in an app (produce: the produce marketplace's)",
})
export class ApplyDefinitionCommand extends CollectionCommand {
  async run(args: string[], options: CollectionOptions): Promise<void> {
    const definition = oneName(
      args,
      'marketplace:collections:apply-definition --app <appKey> <definition>',
    );
    const names = await this.collections.applyDefinition(
      await this.appKeyOf(options),
      definition,
    );
    printLine(`Collections ${names.join(', ')} declared.`);
  }
}

@Command({
  name: 'marketplace:apps:create-collections-on-write',
  arguments: '<on|off>',
  description:
    'Whether writes to undeclared collections of an app declare them (default settings); off by default',
})
export class CreateCollectionsOnWriteCommand extends CollectionCommand {
  async run(args: string[], options: CollectionOptions): Promise<void> {
    const value = oneName(
      args,
      'marketplace:apps:create-collections-on-write --app <appKey> <on|off>',
    );
    if (value !== 'on' && value !== 'off')
      throw new Error('The value is on or off');
    const appKey = await this.appKeyOf(options);
    await this.apps.setCreateCollectionsOnWrite(appKey, value === 'on');
    printLine(`Collections of ${appKey} are created on first write: ${value}.`);
  }
}

export const COLLECTION_COMMANDS = [
  ListCollectionsCommand,
  ShowCollectionCommand,
  CreateCollectionCommand,
  UpdateCollectionCommand,
  DeleteCollectionCommand,
  ApplyDefinitionCommand,
  CreateCollectionsOnWriteCommand,
];
