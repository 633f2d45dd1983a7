import { Inject } from '@nestjs/common';
import { Command, CommandRunner } from 'nest-commander';
import { printLine } from '@quitanda/cli';

import type { ContextEntry } from '../app/contexts/context-entry';
import { migrateContexts } from '../app/database/gateway-database';
import { CLI_CONTEXTS, CLI_DATABASE_URL } from './cli.tokens';

@Command({
  name: 'migrate',
  description:
    'Apply pending migrations of every served context (CONTEXTS), under the advisory lock',
})
export class MigrateCommand extends CommandRunner {
  constructor(
    @Inject(CLI_CONTEXTS) private readonly contexts: readonly ContextEntry[],
    @Inject(CLI_DATABASE_URL) private readonly databaseUrl: string,
  ) {
    super();
  }

  async run(): Promise<void> {
    const applied = await migrateContexts(this.contexts, this.databaseUrl);
    printLine(
      applied.length === 0
        ? 'Nothing to migrate: every schema is up to date.'
        : `Applied:\n${applied.map((name) => `  ${name}`).join('\n')}`,
    );
  }
}
