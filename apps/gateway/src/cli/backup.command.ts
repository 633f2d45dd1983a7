import { Inject } from '@nestjs/common';
import { Command, CommandRunner } from 'nest-commander';
import { CliOption, printLine } from '@quitanda/cli';

import type { GatewayDatabase } from '../app/database/gateway-database';
import { backup, restore } from './backup';
import { CLI_DATABASE } from './cli.tokens';

/** One file argument, or a clear error. */
function fileOf(args: string[], command: string): string {
  const [file, ...rest] = args;
  if (!file || rest.length > 0)
    throw new Error(`Usage: npm run cli -- ${command} <file>`);
  return file;
}

@Command({
  name: 'backup',
  arguments: '<file>',
  description:
    'Write a PostgreSQL dump (plain SQL) of every context schema to <file>, from the embedded database or DATABASE_URL',
})
export class BackupCommand extends CommandRunner {
  constructor(
    @Inject(CLI_DATABASE) private readonly database: GatewayDatabase,
  ) {
    super();
  }

  async run(args: string[]): Promise<void> {
    const done = await backup(this.database, fileOf(args, 'backup'));
    printLine(done);
  }
}

@Command({
  name: 'restore',
  arguments: '<file>',
  description:
    'Replay a backup into the embedded database or DATABASE_URL (PostgreSQL 15 or newer), in one transaction',
})
export class RestoreCommand extends CommandRunner {
  constructor(
    @Inject(CLI_DATABASE) private readonly database: GatewayDatabase,
  ) {
    super();
  }

  async run(args: string[], options: { replace?: boolean }): Promise<void> {
    const done = await restore(
      this.database,
      fileOf(args, 'restore'),
      options.replace ?? false,
    );
    printLine(done);
  }

  @CliOption(
    '--replace',
    "drop the contexts' schemas already in the database first (same transaction)",
  )
  parseReplace(): boolean {
    return true;
  }
}
