import type { TestingModule } from '@nestjs/testing';
import { SchedulerRegistry } from '@nestjs/schedule';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import { errorTrackingTestModule } from '../../testing/error-tracking-test-module';
import { AccountsService } from '../accounts/accounts.service';
import { DOMAIN_PROVIDERS } from '../error-tracking.module';
import { ClientKeyCache } from '../ingestion/client-key-cache';
import { RetentionService } from '../retention/retention.service';
import {
  CreateTokenCommand,
  CreateUserCommand,
  RunRetentionCommand,
} from './error-tracking-cli.commands';

describe('error-tracking CLI commands', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let output: string[];

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await errorTrackingTestModule(database.url, [
      ...DOMAIN_PROVIDERS,
      ClientKeyCache,
      RetentionService,
      { provide: SchedulerRegistry, useValue: new SchedulerRegistry() },
      CreateUserCommand,
      CreateTokenCommand,
      RunRetentionCommand,
    ]);
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
    await module.get(CreateUserCommand).run([], {
      username: 'ops',
      email: 'ops@example.com',
      password: 'long enough',
      admin: true,
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
      /^Retention: cutoff .+, 0 events expired, 0 partitions dropped, 0 errors deleted, 0 source map bundles deleted\.\n$/,
    );
  });
});
