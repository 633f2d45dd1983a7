import { Inject } from '@nestjs/common';
import { Command, CommandRunner, Option } from 'nest-commander';
import { CLOCK, readSecret, refuseSecretArguments } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { AccountsService } from '../accounts/accounts.service';
import { RetentionService } from '../retention/retention.service';

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
    if (!options.username || !options.email)
      throw new Error('--username and --email are required');
    const user = await this.accounts.createUser({
      username: options.username,
      name: options.name ?? options.username,
      email: options.email,
      password: options.password ? await readSecret('Password') : undefined,
      isAdmin: options.admin ?? false,
    });
    process.stdout.write(
      `Created user ${user.username} (id ${user.id}${user.isAdmin ? ', admin' : ''}).\n`,
    );
  }

  @Option({
    flags: '--username <username>',
    description: 'login name',
    required: true,
  })
  parseUsername(value: string): string {
    return value;
  }

  @Option({
    flags: '--name <name>',
    description: 'display name (default: the username)',
  })
  parseName(value: string): string {
    return value;
  }

  @Option({
    flags: '--email <email>',
    description: 'email address',
    required: true,
  })
  parseEmail(value: string): string {
    return value;
  }

  @Option({
    flags: '--password',
    description:
      'set a web UI password (8+ characters), typed at a prompt or read from standard input',
  })
  parsePassword(): boolean {
    return true;
  }

  @Option({ flags: '--admin', description: 'make the user an administrator' })
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
    if (!options.username) throw new Error('--username is required');
    const user = await this.accounts.setPassword(
      options.username,
      await readSecret('Password'),
    );
    process.stdout.write(`Password of ${user.username} set.\n`);
  }

  @Option({
    flags: '--username <username>',
    description: 'whose password',
    required: true,
  })
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
    if (!options.username) throw new Error('--username is required');
    const user = await this.accounts.getUserByUsername(options.username);
    const issued = await this.accounts.createToken(user.id, {
      name: options.name ?? `cli ${this.clock.now().toISOString()}`,
      scopes: options.scopes ?? ['api'],
      expiresAt: options.expiresAt ?? null,
    });
    process.stdout.write(`${issued.token}\n`);
  }

  @Option({
    flags: '--username <username>',
    description: 'owner of the token',
    required: true,
  })
  parseUsername(value: string): string {
    return value;
  }

  @Option({ flags: '--name <name>', description: 'token name' })
  parseName(value: string): string {
    return value;
  }

  @Option({
    flags: '--scopes <scopes>',
    description: 'comma-separated: api, read_api (default api)',
  })
  parseScopes(value: string): string[] {
    return value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  }

  @Option({
    flags: '--expires-at <date>',
    description: 'YYYY-MM-DD (UTC); default never',
  })
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
    process.stdout.write(
      result.ran
        ? `Retention: cutoff ${result.cutoff.toISOString()}, ${result.expiredEvents} events expired, ` +
            `${result.droppedPartitions.length} partitions dropped, ${result.deletedErrors} errors deleted, ${result.deletedArtifactBundles} source map bundles deleted in ${ms} ms.\n`
        : 'Retention is running elsewhere right now; nothing done.\n',
    );
  }
}
