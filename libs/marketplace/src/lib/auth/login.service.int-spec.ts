import type { TestingModule } from '@nestjs/testing';
import { FixedClock, hashPassword } from '@quitanda/kernel';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import {
  marketplaceTestModule,
  sqlOf,
} from '../../testing/marketplace-test-module';
import { MarketplaceError } from '../common/marketplace.errors';
import { UsersRepository } from '../users/users.repository';
import { CredentialsRepository } from './credentials.repository';
import { LoginAttemptsPurgeService } from './login-attempts-purge.service';
import { LoginService } from './login.service';

const APP = 'kid_loginSpec0001';
const PASSWORD = 'correct horse battery';

describe('marketplace login throttle (database)', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let login: LoginService;
  const clock = new FixedClock('2026-11-26T10:00:00.000Z');

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await marketplaceTestModule(
      database.url,
      [
        UsersRepository,
        CredentialsRepository,
        LoginService,
        LoginAttemptsPurgeService,
      ],
      { loginMaxFailures: 5, loginLockSeconds: 300 },
      clock,
    );
    login = module.get(LoginService);
  });

  afterAll(async () => {
    await module?.close();
    await database?.close();
  });

  async function newUser(username: string): Promise<void> {
    await module.get(UsersRepository).insert(
      APP,
      {
        id: username,
        username,
        doc: { username },
        passwordHash: await hashPassword(PASSWORD),
      },
      clock.now(),
    );
  }

  async function attemptsOf(username: string): Promise<number> {
    const rows = await sqlOf(module).rows<{ failures: number }>(
      'SELECT failures FROM marketplace.login_attempts WHERE app_key = $1 AND username = $2',
      [APP, username],
    );
    return rows[0]?.failures ?? 0;
  }

  /** What each attempt came to: the error's name, or `ok`. */
  function outcomes(attempts: Promise<unknown>[]): Promise<string[]> {
    return Promise.all(
      attempts.map((attempt) =>
        attempt.then(
          () => 'ok',
          (error: unknown) => {
            if (error instanceof MarketplaceError) return error.code;
            throw error;
          },
        ),
      ),
    );
  }

  it('checks no more than the limit of 40 parallel guesses, and then refuses the right password', async () => {
    await newUser('burst@example.com');
    const results = await outcomes(
      Array.from({ length: 40 }, (_, n) =>
        login.verify(APP, 'burst@example.com', `wrong guess ${n}`),
      ),
    );
    expect(results.filter((r) => r === 'InvalidCredentials')).toHaveLength(5);
    expect(results.filter((r) => r === 'TooManyRequests')).toHaveLength(35);
    await expect(
      outcomes([login.verify(APP, 'burst@example.com', PASSWORD)]),
    ).resolves.toEqual(['TooManyRequests']);
  });

  it('lets the right password in below the limit and forgets the failures', async () => {
    await newUser('ok@example.com');
    await expect(
      outcomes([
        login.verify(APP, 'ok@example.com', 'wrong'),
        login.verify(APP, 'ok@example.com', 'wrong again'),
      ]),
    ).resolves.toEqual(['InvalidCredentials', 'InvalidCredentials']);
    await expect(
      login.verify(APP, 'ok@example.com', PASSWORD),
    ).resolves.toMatchObject({ username: 'ok@example.com' });
    await expect(attemptsOf('ok@example.com')).resolves.toBe(0);
  });

  it('refuses a username or password longer than any signup takes before counting it', async () => {
    await newUser('long@example.com');
    for (const [username, password] of [
      ['u'.repeat(256), PASSWORD],
      ['long@example.com', 'p'.repeat(257)],
    ])
      await expect(
        outcomes([login.verify(APP, username, password)]),
      ).resolves.toEqual(['InvalidCredentials']);
    await expect(attemptsOf('u'.repeat(256))).resolves.toBe(0);
    await expect(attemptsOf('long@example.com')).resolves.toBe(0);
  });

  it('purges the attempts of names not tried for the lock window', async () => {
    await outcomes([login.verify(APP, 'sprayed-1@example.com', 'x')]);
    clock.advance(300_000);
    await outcomes([login.verify(APP, 'sprayed-2@example.com', 'x')]);
    clock.advance(1);
    await module.get(LoginAttemptsPurgeService).purge();
    await expect(attemptsOf('sprayed-1@example.com')).resolves.toBe(0);
    await expect(attemptsOf('sprayed-2@example.com')).resolves.toBe(1);
  });

  it('keeps the attempts in an unlogged table: a login waits for no WAL flush', async () => {
    const rows = await sqlOf(module).rows<{ persistence: string }>(
      "SELECT relpersistence AS persistence FROM pg_class WHERE oid = 'marketplace.login_attempts'::regclass",
    );
    expect(rows).toEqual([{ persistence: 'u' }]);
  });
});
