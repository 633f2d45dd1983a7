import type { TestingModule } from '@nestjs/testing';
import { FixedClock, SecretSealer, hashToken } from '@quitanda/kernel';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import {
  marketplaceTestModule,
  sqlOf,
} from '../../testing/marketplace-test-module';
import { CredentialsRepository } from '../auth/credentials.repository';
import { MarketplaceErrorCode } from '../common/marketplace.errors';
import { MarketplaceDatabase } from '../persistence/marketplace-database';
import { MfaRepository } from './mfa.repository';
import { SecondFactorService } from './second-factor.service';
import { newTotpSecret, totpCode } from './totp';

const APP = 'kid_mfaSpec000001';
const KEY = 'mfa-spec-key-0123456789abcdef0123';
const STEP_MS = 30_000;

describe('second factor (database)', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let factors: SecondFactorService;
  let mfa: MfaRepository;
  const clock = new FixedClock('2026-11-29T10:00:05.000Z');

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await marketplaceTestModule(
      database.url,
      [CredentialsRepository, MfaRepository, SecondFactorService],
      { loginMaxFailures: 3, loginLockSeconds: 300, mfaEncryptionKey: KEY },
      clock,
    );
    factors = module.get(SecondFactorService);
    mfa = module.get(MfaRepository);
  });

  afterAll(async () => {
    await module?.close();
    await database?.close();
  });

  /** A user with one authenticator (verified or not); its secret. */
  async function enrol(userId: string, verified = true): Promise<string> {
    const secret = newTotpSecret();
    await mfa.insertAuthenticator(
      APP,
      userId,
      {
        id: `${userId}-phone`,
        name: 'phone',
        type: 'totp',
        sealedSecret: factors.requireSealer().seal(secret),
        verified: false,
      },
      clock.now(),
    );
    if (verified) await mfa.confirm(APP, userId, `${userId}-phone`);
    return secret;
  }

  const code = (secret: string, steps = 0) =>
    totpCode(secret, new Date(clock.now().getTime() + steps * STEP_MS));
  const check = (userId: string, value: string) =>
    factors.checkCode(APP, userId, `${userId}-phone`, value);
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => 'accepted',
      (error: { code?: string }) => error.code,
    );

  it('accepts a code once: the same code again, or one of an earlier step, is refused', async () => {
    const secret = await enrol('ana');
    await check('ana', code(secret));
    expect(await refusal(check('ana', code(secret)))).toBe(
      MarketplaceErrorCode.BadRequest,
    );
    await check('ana', code(secret, 1));
    expect(await refusal(check('ana', code(secret)))).toBe(
      MarketplaceErrorCode.BadRequest,
    );
  });

  it('lets the code that confirms an authenticator complete one login, never a second', async () => {
    const secret = await enrol('jon', false);
    const value = code(secret);
    await check('jon', value);
    await expect(factors.gate(APP, 'jon', {})).resolves.toMatchObject({
      mfaRequired: true,
    });
    await check('jon', value);
    expect(await refusal(check('jon', value))).toBe(
      MarketplaceErrorCode.BadRequest,
    );
  });

  it('takes a code at most twice, once confirming and once signing in, however many race', async () => {
    const secret = await enrol('kai', false);
    const value = code(secret);
    const burst = await Promise.all(
      Array.from({ length: 10 }, () => refusal(check('kai', value))),
    );
    const outcomes = [...burst, await refusal(check('kai', value))];
    expect(outcomes.filter((o) => o === 'accepted')).toHaveLength(2);
  });

  it('lets one of ten parallel uses of a code through', async () => {
    const secret = await enrol('bea');
    const value = code(secret);
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => refusal(check('bea', value))),
    );
    expect(outcomes.filter((o) => o === 'accepted')).toHaveLength(1);
  });

  it('throttles wrong codes like logins: past the limit even the right code is refused with 429', async () => {
    const secret = await enrol('cid');
    const wrong = code(secret, 10);
    for (let i = 0; i < 3; i += 1)
      expect(await refusal(check('cid', wrong))).toBe(
        MarketplaceErrorCode.BadRequest,
      );
    expect(await refusal(check('cid', code(secret)))).toBe(
      MarketplaceErrorCode.TooManyRequests,
    );
  });

  it('forgets failed codes with the failed logins once the lock window is over', async () => {
    const secret = await enrol('hal');
    await refusal(check('hal', code(secret, 10)));
    const count = () =>
      sqlOf(module).rows<{ n: number }>(
        'SELECT count(*)::int AS n FROM marketplace.mfa_attempts WHERE app_key = $1 AND username = $2',
        [APP, 'hal'],
      );
    expect(await count()).toEqual([{ n: 1 }]);
    await module
      .get(CredentialsRepository)
      .purgeAttempts(new Date(clock.now().getTime() + 1));
    expect(await count()).toEqual([{ n: 0 }]);
  });

  it('keeps the TOTP secret sealed at rest, under its own key and purpose', async () => {
    const secret = await enrol('dan');
    const rows = await sqlOf(module).rows<{ sealed_secret: string }>(
      'SELECT sealed_secret FROM marketplace.mfa_authenticators WHERE app_key = $1 AND user_id = $2',
      [APP, 'dan'],
    );
    const sealed = rows[0]?.sealed_secret ?? '';
    expect(sealed).not.toContain(secret);
    expect(factors.requireSealer().open(sealed)).toBe(secret);
    expect(() =>
      new SecretSealer(KEY, 'quitanda:webhook-token').open(sealed),
    ).toThrow();
    expect(() =>
      new SecretSealer(
        'another-key-0123456789abcdef012345',
        'quitanda:mfa-totp-secret',
      ).open(sealed),
    ).toThrow();
  });

  it('asks for a second factor only once an authenticator is verified, and lets a recovery code through once', async () => {
    await enrol('eva', false);
    expect(await factors.gate(APP, 'eva', {})).toBeUndefined();
    await mfa.confirm(APP, 'eva', 'eva-phone');
    const challenge = await factors.gate(APP, 'eva', {});
    expect(challenge).toEqual({
      mfaRequired: true,
      mfaSessionToken: expect.any(String),
      userId: 'eva',
      authenticators: [{ id: 'eva-phone', name: 'phone', type: 'totp' }],
    });
    await expect(
      mfa.findSession(
        APP,
        hashToken(String(challenge?.['mfaSessionToken'])),
        clock.now(),
      ),
    ).resolves.toEqual({ userId: 'eva', authenticatorId: null });

    await module
      .get(MarketplaceDatabase)
      .transaction((tx) =>
        mfa.replaceRecoveryCodes(
          APP,
          'eva',
          [{ digest: hashToken('rescue-me'), sealed: 'not listed here' }],
          tx,
        ),
      );
    expect(
      await factors.gate(APP, 'eva', { recoveryCode: ' rescue-me ' }),
    ).toBeUndefined();
    expect(
      await refusal(factors.gate(APP, 'eva', { recoveryCode: 'rescue-me' })),
    ).toBe(MarketplaceErrorCode.InvalidCredentials);
  });

  it('spares a remembered device the challenge, for its own user only', async () => {
    await enrol('fay');
    await enrol('gus');
    const device = await factors.rememberDevice(APP, 'fay');
    expect(
      await factors.gate(APP, 'fay', { deviceToken: device }),
    ).toBeUndefined();
    expect(
      await factors.gate(APP, 'gus', { deviceToken: device }),
    ).toMatchObject({ mfaRequired: true });
  });

  it('forgets remembered devices when every session of the user is revoked (logout everywhere, password change or reset)', async () => {
    await enrol('ian');
    const device = await factors.rememberDevice(APP, 'ian');
    await module.get(CredentialsRepository).revokeAll(APP, 'ian');
    expect(
      await factors.gate(APP, 'ian', { deviceToken: device }),
    ).toMatchObject({ mfaRequired: true });
  });
});
