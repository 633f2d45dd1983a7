import { randomUUID } from 'node:crypto';

import type { TestingModule } from '@nestjs/testing';
import { FixedClock, hashPassword, hashToken } from '@quitanda/kernel';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import {
  marketplaceTestModule,
  sqlOf,
} from '../../testing/marketplace-test-module';
import { CredentialsRepository } from '../auth/credentials.repository';
import { MarketplaceErrorCode } from '../common/marketplace.errors';
import {
  MAX_OPERATOR_SESSIONS,
  OperatorSessionsService,
} from './operator-sessions.service';
import { OperatorsRepository } from './operators.repository';

const PASSWORD = 'operator password 123';

describe('operator sessions (database)', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let sessions: OperatorSessionsService;
  let operators: OperatorsRepository;
  const clock = new FixedClock('2026-11-29T10:00:00.000Z');

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await marketplaceTestModule(
      database.url,
      [CredentialsRepository, OperatorsRepository, OperatorSessionsService],
      { loginMaxFailures: 3, loginLockSeconds: 300, tokenLifetimeDays: 30 },
      clock,
    );
    sessions = module.get(OperatorSessionsService);
    operators = module.get(OperatorsRepository);
  });

  afterAll(async () => {
    await module?.close();
    await database?.close();
  });

  async function operator(email: string): Promise<string> {
    const id = randomUUID();
    await operators.insert(
      id,
      email,
      await hashPassword(PASSWORD),
      clock.now(),
    );
    return id;
  }

  const codeOf = (promise: Promise<unknown>) =>
    promise.then(
      () => 'ok',
      (error: { code?: string }) => error.code,
    );

  it('logs in without regard to the case of the address and stores only the digest of the token', async () => {
    const id = await operator('ana@example.com');
    const { email, token } = await sessions.login('Ana@Example.com', PASSWORD);
    expect(email).toBe('ana@example.com');
    const rows = await sqlOf(module).rows<{ digest: string }>(
      'SELECT digest FROM marketplace.operator_sessions WHERE operator_id = $1',
      [id],
    );
    expect(rows.map((row) => row.digest)).toEqual([hashToken(token)]);
    await expect(sessions.authenticate(token)).resolves.toEqual({
      id,
      email: 'ana@example.com',
    });
    await sessions.logout(token);
    expect(await codeOf(sessions.authenticate(token))).toBe(
      MarketplaceErrorCode.InvalidCredentials,
    );
  });

  it('locks an address after the failures the users have, known or not, and a right password does not get through the lock', async () => {
    await operator('bo@example.com');
    for (const email of ['bo@example.com', 'nobody@example.com']) {
      for (let i = 0; i < 3; i++)
        expect(await codeOf(sessions.login(email, 'wrong password'))).toBe(
          MarketplaceErrorCode.InvalidCredentials,
        );
      expect(await codeOf(sessions.login(email, PASSWORD))).toBe(
        MarketplaceErrorCode.TooManyRequests,
      );
    }
  });

  it('expires sessions with the token lifetime and keeps at most the newest sessions of an operator', async () => {
    const id = await operator('cy@example.com');
    const first = await sessions.login('cy@example.com', PASSWORD);
    for (let i = 0; i < MAX_OPERATOR_SESSIONS; i++) {
      clock.advance(1);
      await sessions.login('cy@example.com', PASSWORD);
    }
    const [count] = await sqlOf(module).rows<{ n: number }>(
      'SELECT count(*)::int AS n FROM marketplace.operator_sessions WHERE operator_id = $1',
      [id],
    );
    expect(count?.n).toBe(MAX_OPERATOR_SESSIONS);
    expect(await codeOf(sessions.authenticate(first.token))).toBe(
      MarketplaceErrorCode.InvalidCredentials,
    );

    const last = await sessions.login('cy@example.com', PASSWORD);
    const lifetimeMs = 30 * 86_400_000;
    clock.advance(lifetimeMs);
    try {
      expect(await codeOf(sessions.authenticate(last.token))).toBe(
        MarketplaceErrorCode.InvalidCredentials,
      );
    } finally {
      clock.advance(-lifetimeMs);
    }
  });
});
