import type { TestingModule } from '@nestjs/testing';
import type { Sql } from '@quitanda/database';
import { FixedClock, hashToken } from '@quitanda/kernel';
import { defined, openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import {
  errorTrackingTestModule,
  sqlOf,
} from '../../testing/error-tracking-test-module';
import { AccountsRepository } from '../accounts/accounts.repository';
import { AccountsService } from '../accounts/accounts.service';
import { InitialCredentialsRetirement } from '../accounts/initial-credentials-retirement';
import { WebSessionsRepository } from './web-sessions.repository';
import { WebSessionsService } from './web-sessions.service';

const PASSWORD = 'correct horse battery';

const SESSION_PROVIDERS = [
  AccountsRepository,
  AccountsService,
  InitialCredentialsRetirement,
  WebSessionsRepository,
  WebSessionsService,
];

describe('web sessions (fake clock)', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let configured: TestingModule;
  let sessions: WebSessionsService;
  let accounts: AccountsService;
  let sql: Sql;
  const clock = new FixedClock('2026-11-22T10:00:00.000Z');
  const configuredClock = new FixedClock('2026-11-22T10:00:00.000Z');

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await errorTrackingTestModule(
      database.url,
      SESSION_PROVIDERS,
      {},
      clock,
    );
    // The same database, with the lifetime and lock set as an operator would.
    configured = await errorTrackingTestModule(
      database.url,
      SESSION_PROVIDERS,
      { sessionMinutes: 60, signInMaxFailures: 3, signInLockSeconds: 30 },
      configuredClock,
    );
    sessions = module.get(WebSessionsService);
    accounts = module.get(AccountsService);
    sql = sqlOf(module);
  });

  afterAll(async () => {
    await configured?.close();
    await module?.close();
    await database?.close();
  });

  async function newUser(
    name: string,
    password: string | undefined = PASSWORD,
  ) {
    return accounts.createUser({
      username: name,
      name,
      email: `${name}@example.com`,
      password,
    });
  }

  it('signs in with the password an admin set (any case of the username), storing only a hash of the id', async () => {
    const user = await newUser('Ana');
    const result = await sessions.signIn('ana', PASSWORD);
    if (result.kind !== 'signed-in') throw new Error(result.kind);
    expect(result.session.user.id).toBe(user.id);
    expect(result.session.id).toMatch(/^[\w-]{43}$/);
    const rows = await sql.rows<{ id_digest: string; expires_at: Date }>(
      'SELECT id_digest, expires_at FROM error_tracking.web_sessions WHERE user_id = $1',
      [user.id],
    );
    expect(rows).toEqual([
      {
        id_digest: hashToken(result.session.id),
        expires_at: new Date(clock.now().getTime() + 7 * 24 * 3600 * 1000),
      },
    ]);
    await expect(sessions.resolve(result.session.id)).resolves.toMatchObject({
      user: { id: user.id },
    });
    await expect(sessions.resolve(hashToken(result.session.id))).resolves.toBe(
      undefined,
    );
  });

  it('refuses a wrong password, an unknown user and a user without a password alike', async () => {
    await newUser('nopass', undefined);
    await expect(sessions.signIn('ana', 'wrong password')).resolves.toEqual({
      kind: 'invalid',
    });
    await expect(sessions.signIn('ghost', PASSWORD)).resolves.toEqual({
      kind: 'invalid',
    });
    await expect(sessions.signIn('nopass', '')).resolves.toEqual({
      kind: 'invalid',
    });
  });

  it('ends a session at its expiry and at sign-out', async () => {
    await newUser('bea');
    const first = await sessions.signIn('bea', PASSWORD);
    const second = await sessions.signIn('bea', PASSWORD);
    if (first.kind !== 'signed-in' || second.kind !== 'signed-in')
      throw new Error('sign-in failed');
    await sessions.signOut(first.session.id);
    await expect(sessions.resolve(first.session.id)).resolves.toBe(undefined);
    await expect(sessions.resolve(second.session.id)).resolves.toBeDefined();
    clock.advance(sessions.ttlSeconds * 1000);
    await expect(sessions.resolve(second.session.id)).resolves.toBe(undefined);
  });

  it('slows repeated failures for one username, then blocks it for 15 minutes, the right password included', async () => {
    await newUser('cid');
    for (let i = 0; i < 3; i++)
      await expect(sessions.signIn('cid', 'nope')).resolves.toEqual({
        kind: 'invalid',
      });
    await expect(sessions.signIn('CID', PASSWORD)).resolves.toEqual({
      kind: 'throttled',
      retryAfterSeconds: 1,
    });
    // Other usernames are not affected.
    await expect(sessions.signIn('ana', PASSWORD)).resolves.toMatchObject({
      kind: 'signed-in',
    });
    for (let failures = 4; failures <= 10; failures++) {
      clock.advance(64_000);
      await expect(sessions.signIn('cid', 'nope')).resolves.toEqual({
        kind: 'invalid',
      });
    }
    clock.advance(64_000);
    // Blocked for 15 minutes from the tenth failure, 64 s ago.
    await expect(sessions.signIn('cid', PASSWORD)).resolves.toEqual({
      kind: 'throttled',
      retryAfterSeconds: 15 * 60 - 64,
    });
    clock.advance(15 * 60_000);
    const after = await sessions.signIn('cid', PASSWORD);
    expect(after.kind).toBe('signed-in');
    // Success clears the count.
    const [row] = await sql.rows<{ n: number }>(
      "SELECT count(*)::int AS n FROM error_tracking.sign_in_throttles WHERE username = 'cid'",
    );
    expect(defined(row, 'count').n).toBe(0);
  });

  it('checks no more of 40 parallel guesses than the throttle allows, then refuses the right password', async () => {
    await newUser('flood');
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, n) =>
        sessions.signIn('flood', `wrong guess ${n}`),
      ),
    );
    // Two free failures, and the third blocks the name for a second.
    expect(results.filter((r) => r.kind === 'invalid')).toHaveLength(3);
    expect(results.filter((r) => r.kind === 'throttled')).toHaveLength(37);
    await expect(sessions.signIn('flood', PASSWORD)).resolves.toEqual({
      kind: 'throttled',
      retryAfterSeconds: 1,
    });
  });

  it('refuses a very long username like any unknown one, counting at most 255 characters of it', async () => {
    await expect(
      sessions.signIn('v'.repeat(500_000), 'p'.repeat(500_000)),
    ).resolves.toEqual({ kind: 'invalid' });
    const [row] = await sql.rows<{ n: number }>(
      'SELECT max(length(username))::int AS n FROM error_tracking.sign_in_throttles',
    );
    expect(defined(row, 'longest').n).toBeLessThanOrEqual(255);
  });

  describe('with ERROR_TRACKING_SESSION_MINUTES=60, _SIGN_IN_MAX_FAILURES=3, _SIGN_IN_LOCK_SECONDS=30', () => {
    let configuredSessions: WebSessionsService;

    beforeAll(async () => {
      configuredSessions = configured.get(WebSessionsService);
      await newUser('dee');
    });

    it('ends a session after ERROR_TRACKING_SESSION_MINUTES', async () => {
      expect(configuredSessions.ttlSeconds).toBe(3600);
      const result = await configuredSessions.signIn('dee', PASSWORD);
      if (result.kind !== 'signed-in') throw new Error(result.kind);
      configuredClock.advance(3600_000 - 1);
      await expect(
        configuredSessions.resolve(result.session.id),
      ).resolves.toBeDefined();
      configuredClock.advance(1);
      await expect(configuredSessions.resolve(result.session.id)).resolves.toBe(
        undefined,
      );
    });

    it('refuses a username for the configured lock after the configured failures', async () => {
      for (let i = 0; i < 3; i++)
        await expect(configuredSessions.signIn('dee', 'nope')).resolves.toEqual(
          {
            kind: 'invalid',
          },
        );
      await expect(configuredSessions.signIn('dee', PASSWORD)).resolves.toEqual(
        {
          kind: 'throttled',
          retryAfterSeconds: 30,
        },
      );
      configuredClock.advance(30_000);
      await expect(
        configuredSessions.signIn('dee', PASSWORD),
      ).resolves.toMatchObject({
        kind: 'signed-in',
      });
    });
  });
});
