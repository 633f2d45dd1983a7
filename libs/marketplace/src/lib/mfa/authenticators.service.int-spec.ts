import type { TestingModule } from '@nestjs/testing';
import { FixedClock } from '@quitanda/kernel';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import { marketplaceTestModule } from '../../testing/marketplace-test-module';
import type { AppRecord } from '../apps/app.types';
import { CredentialsRepository } from '../auth/credentials.repository';
import type { Principal } from '../auth/principal';
import { MarketplaceErrorCode } from '../common/marketplace.errors';
import { MarketplaceDatabase } from '../persistence/marketplace-database';
import { UsersRepository } from '../users/users.repository';
import {
  AuthenticatorsService,
  MAX_AUTHENTICATORS,
} from './authenticators.service';
import { MfaRepository } from './mfa.repository';
import { SecondFactorService } from './second-factor.service';
import { totpCode } from './totp';

const APP = 'kid_authSpec00001';
const KEY = 'mfa-spec-key-0123456789abcdef0123';

describe('authenticators (database)', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let service: AuthenticatorsService;
  const clock = new FixedClock('2026-11-29T10:00:05.000Z');
  const app = { appKey: APP } as AppRecord;

  async function open(options: { mfaEncryptionKey?: string }) {
    return marketplaceTestModule(
      database.url,
      [
        UsersRepository,
        CredentialsRepository,
        MfaRepository,
        SecondFactorService,
        AuthenticatorsService,
      ],
      options,
      clock,
    );
  }

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await open({ mfaEncryptionKey: KEY });
    service = module.get(AuthenticatorsService);
  });

  afterAll(async () => {
    await module?.close();
    await database?.close();
  });

  async function user(id: string): Promise<Principal> {
    const stored = { id, username: id, doc: { username: id } };
    await module
      .get(UsersRepository)
      .insert(APP, { ...stored, passwordHash: 'x' }, clock.now());
    return {
      kind: 'user',
      app,
      user: { ...stored, passwordHash: 'x', disabled: false },
    } as Principal;
  }

  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => 'done',
      (error: { code?: string }) => error.code,
    );

  /** Adds and verifies one authenticator (each has its own time steps). */
  async function enrolled(principal: Principal, id: string, n: number) {
    const added = await service.create(principal, id, { name: `phone ${n}` });
    const code = totpCode(added.config.secret, clock.now());
    return service.verify(principal, id, added.id, { code });
  }

  it('lists the unused recovery codes again, in order, as Kinvey does', async () => {
    const ida = await user('ida');
    const { recoveryCodes } = await enrolled(ida, 'ida', 1);
    expect(recoveryCodes).toHaveLength(10);
    await expect(service.listRecoveryCodes(ida, 'ida')).resolves.toEqual({
      recoveryCodes,
    });
    const stored = await module
      .get(MarketplaceDatabase)
      .transaction((tx) =>
        tx.rows<{ sealed_code: string }>(
          `SELECT sealed_code FROM marketplace.mfa_recovery_codes WHERE user_id = 'ida'`,
        ),
      );
    expect(stored).toHaveLength(10);
    for (const { sealed_code } of stored)
      expect(recoveryCodes).not.toContain(sealed_code);

    const renewed = await service.regenerateRecoveryCodes(ida, 'ida');
    await expect(service.listRecoveryCodes(ida, 'ida')).resolves.toEqual(
      renewed,
    );
    expect(
      await failure(service.listRecoveryCodes(await user('jon'), 'ida')),
    ).toBe(MarketplaceErrorCode.InsufficientCredentials);
  });

  it('turns MFA off when the last two authenticators are removed at once, as the SDK disables it', async () => {
    const kim = await user('kim');
    await enrolled(kim, 'kim', 1);
    await enrolled(kim, 'kim', 2);
    const [first, second] = (await service.list(kim, 'kim')).map((a) => a.id);
    const db = module.get(MarketplaceDatabase);
    const mfa = module.get(MfaRepository);
    /** Resolves once another session waits on a lock (the second removal). */
    const someoneWaits = async (): Promise<void> => {
      for (;;) {
        const waiting = await db.transaction((tx) =>
          tx.rows(
            `SELECT 1 FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          ),
        );
        if (waiting.length > 0) return;
      }
    };
    let other: Promise<void> = Promise.resolve();
    await db.transaction(async (tx) => {
      await mfa.removeAuthenticator(APP, 'kim', first, tx);
      await mfa.dropUnusedFactors(APP, 'kim', tx);
      // The other removal runs while this one is not committed yet: it must
      // wait for it rather than decide on what it sees now.
      other = service.remove(kim, 'kim', second);
      await Promise.race([other, someoneWaits()]);
    });
    await other;
    await expect(mfa.hasRecoveryCodes(APP, 'kim')).resolves.toBe(false);
    const again = await enrolled(kim, 'kim', 3);
    expect(again.recoveryCodes).toHaveLength(10);
  });

  it('replaces a pending enrolment rather than piling them up, and caps verified ones', async () => {
    const ana = await user('ana');
    // Abandoned enrolments (the SDK gives up after 10 wrong codes).
    for (let i = 0; i <= MAX_AUTHENTICATORS; i += 1)
      await service.create(ana, 'ana', { name: `try ${i}` });
    const first = await enrolled(ana, 'ana', 0);
    expect(first.recoveryCodes).toHaveLength(10);
    for (let n = 1; n < MAX_AUTHENTICATORS; n += 1)
      expect(await enrolled(ana, 'ana', n)).toEqual({});
    expect(await service.list(ana, 'ana')).toHaveLength(MAX_AUTHENTICATORS);
    expect(
      await failure(service.create(ana, 'ana', { name: 'one more' })),
    ).toBe(MarketplaceErrorCode.ParameterValueOutOfRange);
  });

  it('lets only the user itself or master manage its factors', async () => {
    const bea = await user('bea');
    await user('cid');
    expect(await failure(service.create(bea, 'cid', { name: 'phone' }))).toBe(
      MarketplaceErrorCode.InsufficientCredentials,
    );
    const master = { kind: 'master', app } as Principal;
    expect(await failure(service.list(master, 'nobody'))).toBe(
      MarketplaceErrorCode.UserNotFound,
    );
    expect(await service.list(master, 'bea')).toEqual([]);
  });

  it('answers a clear Kinvey error, not a 500, when the key changed since a secret was sealed', async () => {
    const dan = await user('dan');
    const added = await service.create(dan, 'dan', { name: 'phone' });
    const rekeyed = await open({
      mfaEncryptionKey: 'another-key-0123456789abcdef012345',
    });
    try {
      const code = totpCode(added.config.secret, clock.now());
      expect(
        await failure(
          rekeyed
            .get(AuthenticatorsService)
            .verify(dan, 'dan', added.id, { code }),
        ),
      ).toBe(MarketplaceErrorCode.FeatureUnavailable);
    } finally {
      await rekeyed.close();
    }
  });

  it('answers FeatureUnavailable to every MFA call without a key', async () => {
    const off = await open({});
    try {
      const eva = await user('eva');
      expect(
        await failure(
          off.get(AuthenticatorsService).create(eva, 'eva', { name: 'phone' }),
        ),
      ).toBe(MarketplaceErrorCode.FeatureUnavailable);
    } finally {
      await off.close();
    }
  });
});
