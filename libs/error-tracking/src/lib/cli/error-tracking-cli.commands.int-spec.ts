import { PassThrough } from 'node:stream';

import type { TestingModule } from '@nestjs/testing';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import { errorTrackingTestModule } from '../../testing/error-tracking-test-module';
import { AccountsService } from '../accounts/accounts.service';
import { ErrorTrackingCoreModule } from '../core/error-tracking-core.module';
import { RetentionModule } from '../retention/retention.module';
import {
  CreateTokenCommand,
  CreateUserCommand,
  RunRetentionCommand,
  SetUserPasswordCommand,
} from './error-tracking-cli.commands';

/** Standard input as a pipe carrying `text` (the CLI reads passwords there). */
function stdinOf(text: string): void {
  const input = new PassThrough();
  input.end(text);
  jest.spyOn(process, 'stdin', 'get').mockReturnValue(input as never);
}

describe('error-tracking CLI commands', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let output: string[];

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await errorTrackingTestModule(database.url, {
      imports: [ErrorTrackingCoreModule, RetentionModule],
      providers: [
        CreateUserCommand,
        SetUserPasswordCommand,
        CreateTokenCommand,
        RunRetentionCommand,
      ],
    });
  });

  beforeEach(() => {
    output = [];
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      output.push(String(chunk));
      return true;
    });
  });

  afterEach(() => jest.restoreAllMocks());

  afterAll(async () => {
    await module?.close();
    await database?.close();
  });

  it('users:create then tokens:create prints a working token', async () => {
    stdinOf('long enough\n');
    await module.get(CreateUserCommand).run([], {
      username: 'ops',
      email: 'ops@example.com',
      password: true,
      admin: true,
    });
    const accounts = module.get(AccountsService);
    expect(await accounts.checkPassword('ops', 'long enough')).toMatchObject({
      username: 'ops',
    });
    expect(output.join('')).toMatch(/Created user ops \(id \d+, admin\)/);
    output = [];
    await module
      .get(CreateTokenCommand)
      .run([], { username: 'ops', scopes: ['read_api'] });
    const token = output.join('').trim();
    expect(token).toMatch(/^glpat-/);
    const caller = await module.get(AccountsService).authenticate(token);
    expect(caller.user).toMatchObject({ username: 'ops', isAdmin: true });
    expect(caller.token.scopes).toEqual(['read_api']);
  });

  it('users:set-password reads the password from standard input, never argv', async () => {
    stdinOf('first password\n');
    await module.get(CreateUserCommand).run([], {
      username: 'ana',
      email: 'ana@example.com',
      password: true,
    });
    await expect(
      module
        .get(SetUserPasswordCommand)
        .run(['on-the-command-line'], { username: 'ana' }),
    ).rejects.toThrow(/never from the command line/);
    stdinOf('second password\r\n');
    await module.get(SetUserPasswordCommand).run([], { username: 'ana' });
    expect(output.join('')).toContain('Password of ana set.');
    const accounts = module.get(AccountsService);
    expect(await accounts.checkPassword('ana', 'first password')).toBeFalsy();
    expect(
      await accounts.checkPassword('ana', 'second password'),
    ).toMatchObject({ username: 'ana' });
    stdinOf('short\n');
    await expect(
      module.get(SetUserPasswordCommand).run([], { username: 'ana' }),
    ).rejects.toMatchObject({ message: expect.stringContaining('too short') });
  });

  it('tokens:create refuses an unknown user', async () => {
    await expect(
      module.get(CreateTokenCommand).run([], { username: 'ghost' }),
    ).rejects.toMatchObject({
      message: '404 User Not Found',
    });
  });

  it('retention:run reports what it did', async () => {
    await module.get(RunRetentionCommand).run();
    expect(output.join('')).toMatch(
      /^Retention: cutoff .+, 0 events expired, 0 partitions dropped, 0 errors deleted, 0 source map bundles deleted in \d+ ms\.\n$/,
    );
  });
});
