import { Inject } from '@nestjs/common';
import { Command, CommandRunner } from 'nest-commander';
import {
  CliOption,
  printLine,
  readSecret,
  refuseSecretArguments,
  requireOptions,
} from '@quitanda/cli';
import { CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { AccountsService } from '../accounts/accounts.service';
import { RetentionService } from '../retention/retention.service';
import { RETITLE_BATCH, RetitleService } from '../retitle/retitle.service';
import { batchSize } from './batch-option';

interface UserOptions {
  username: string;
  name?: string;
  email: string;
  password?: boolean;
  admin?: boolean;
}

@Command({
  name: 'users:create',
  description: 'Create an error-tracking user (web UI password optional)',
})
export class CreateUserCommand extends CommandRunner {
  constructor(private readonly accounts: AccountsService) {
    super();
  }

  async run(args: string[], options: UserOptions): Promise<void> {
    refuseSecretArguments(args);
    requireOptions(options, 'username', 'email');
    const user = await this.accounts.createUser({
      username: options.username,
      name: options.name ?? options.username,
      email: options.email,
      password: options.password ? await readSecret('Password') : undefined,
      isAdmin: options.admin ?? false,
    });
    printLine(
      `Created user ${user.username} (id ${user.id}${user.isAdmin ? ', admin' : ''}).`,
    );
  }

  @CliOption('--username <username>', 'login name', true)
  parseUsername(value: string): string {
    return value;
  }

  @CliOption('--name <name>', 'display name (default: the username)')
  parseName(value: string): string {
    return value;
  }

  @CliOption('--email <email>', 'email address', true)
  parseEmail(value: string): string {
    return value;
  }

  @CliOption(
    '--password',
    'set a web UI password (8+ characters), typed at a prompt or read from standard input',
  )
  parsePassword(): boolean {
    return true;
  }

  @CliOption('--admin', 'make the user an administrator')
  parseAdmin(): boolean {
    return true;
  }
}

@Command({
  name: 'users:set-password',
  description:
    "Set an error-tracking user's web UI password, typed at a prompt or read from standard input",
})
export class SetUserPasswordCommand extends CommandRunner {
  constructor(private readonly accounts: AccountsService) {
    super();
  }

  async run(args: string[], options: { username?: string }): Promise<void> {
    refuseSecretArguments(args);
    requireOptions(options, 'username');
    const user = await this.accounts.setPassword(
      options.username,
      await readSecret('Password'),
    );
    printLine(`Password of ${user.username} set.`);
  }

  @CliOption('--username <username>', 'whose password', true)
  parseUsername(value: string): string {
    return value;
  }
}

interface TokenOptions {
  username: string;
  name?: string;
  scopes?: string[];
  expiresAt?: string;
}

@Command({
  name: 'tokens:create',
  description:
    'Create a personal access token for a user and print it (shown once)',
})
export class CreateTokenCommand extends CommandRunner {
  constructor(
    private readonly accounts: AccountsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    super();
  }

  async run(_args: string[], options: TokenOptions): Promise<void> {
    requireOptions(options, 'username');
    const user = await this.accounts.getUserByUsername(options.username);
    const issued = await this.accounts.createToken(user.id, {
      name: options.name ?? `cli ${this.clock.now().toISOString()}`,
      scopes: options.scopes ?? ['api'],
      expiresAt: options.expiresAt ?? null,
    });
    printLine(issued.token);
  }

  @CliOption('--username <username>', 'owner of the token', true)
  parseUsername(value: string): string {
    return value;
  }

  @CliOption('--name <name>', 'token name')
  parseName(value: string): string {
    return value;
  }

  @CliOption(
    '--scopes <scopes>',
    'comma-separated: api, read_api (default api)',
  )
  parseScopes(value: string): string[] {
    return value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  }

  @CliOption('--expires-at <date>', 'YYYY-MM-DD (UTC); default never')
  parseExpiresAt(value: string): string {
    return value;
  }
}

@Command({
  name: 'retention:run',
  description:
    'Delete error-tracking events older than ERROR_TRACKING_RETENTION_DAYS now',
})
export class RunRetentionCommand extends CommandRunner {
  constructor(private readonly retention: RetentionService) {
    super();
  }

  async run(): Promise<void> {
    const started = performance.now();
    const result = await this.retention.run(true);
    const ms = Math.round(performance.now() - started);
    printLine(
      result.ran
        ? `Retention: cutoff ${result.cutoff.toISOString()}, ${result.expiredEvents} events expired, ` +
            `${result.droppedPartitions.length} partitions dropped, ${result.deletedErrors} errors deleted, ${result.deletedArtifactBundles} source map bundles deleted in ${ms} ms.`
        : 'Retention is running elsewhere right now; nothing done.',
    );
  }
}

@Command({
  name: 'errors:retitle',
  description:
    "Re-derive every stored error's title and culprit from its latest event by today's rules (batched; safe while running)",
})
export class RetitleErrorsCommand extends CommandRunner {
  constructor(private readonly retitle: RetitleService) {
    super();
  }

  async run(_args: string[], options: { batch?: number }): Promise<void> {
    const started = performance.now();
    const result = await this.retitle.run(options.batch ?? RETITLE_BATCH);
    const ms = Math.round(performance.now() - started);
    printLine(
      `Titles and culprits: ${result.errors} errors read, ${result.changed} changed in ${ms} ms.`,
    );
  }

  @CliOption(
    '--batch <size>',
    `errors per transaction (default ${RETITLE_BATCH})`,
  )
  parseBatch(value: string): number {
    return batchSize(value);
  }
}
