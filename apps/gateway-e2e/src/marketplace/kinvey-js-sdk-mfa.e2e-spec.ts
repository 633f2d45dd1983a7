import { MFA, User } from 'kinvey-js-sdk';
import { Secret, TOTP } from 'otpauth';

import { initKinveySdk } from './kinvey-js-sdk-platform';
import type { SentRequest } from './kinvey-js-sdk-platform';
import {
  APP_KEY,
  APP_SECRET,
  MASTER_SECRET,
  kinveyError,
  startMarketplace,
} from './marketplace-support';
import type { MarketplaceTest } from './marketplace-support';

const PASSWORD = 'correct horse battery';
const STEP_MS = 30_000;

/** What an authenticator app shows for `secret`, `steps` periods from now. */
function codeOf(secret: string, steps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + steps * STEP_MS,
  });
}

/**
 * Kinvey's multi-factor authentication driven by kinvey-js-sdk 7.0.0's
 * public API (`MFA`, `User.loginWithMFA`, `User.loginWithRecoveryCode`),
 * with codes computed here from the secret the server handed out.
 */
describe('MFA on kinvey-js-sdk 7.0.0 (e2e)', () => {
  let t: MarketplaceTest;
  let sent: SentRequest[];

  beforeAll(async () => {
    t = await startMarketplace({
      MARKETPLACE_MFA_ENCRYPTION_KEY: 'mfa-key-0123456789abcdef0123456789',
    });
    ({ sent } = initKinveySdk(t.gw.url, {
      appKey: APP_KEY,
      appSecret: APP_SECRET,
    }));
  }, 120_000);

  afterAll(() => t?.gw.close());

  const paths = (from: number) =>
    sent.slice(from).map((r) => `${r.method} ${r.path}`);

  it('creates and verifies an authenticator, then logs in with the confirming code once, a challenge, a remembered device and recovery codes (each once), and turns MFA off', async () => {
    await User.signup({ username: 'ana', password: PASSWORD });
    const userId = (await User.login('ana', PASSWORD))._id as string;
    let secret = '';
    let verifyCode = '';
    const created = await MFA.Authenticators.create(
      { name: 'phone' },
      (authenticator) => {
        secret = (authenticator.config as { secret: string }).secret;
        verifyCode = codeOf(secret);
        return Promise.resolve(verifyCode);
      },
    );
    expect(created.authenticator).toMatchObject({
      name: 'phone',
      type: 'totp',
    });
    const recoveryCodes = created.recoveryCodes as string[];
    expect(recoveryCodes).toHaveLength(10);
    expect(await MFA.isEnabled()).toBe(true);
    expect(await MFA.Authenticators.list()).toEqual([
      { id: created.authenticator.id, name: 'phone', type: 'totp' },
    ]);

    // A plain login is now refused by the SDK: the server asks for a factor.
    await User.logout();
    await expect(User.login('ana', PASSWORD)).rejects.toThrow(
      'MFA login is required.',
    );

    const pickFirst = (authenticators: object[]) =>
      Promise.resolve((authenticators[0] as { id: string }).id);

    // The code that just confirmed the authenticator completes a login, as
    // Kinvey's own suite does right after enrolling (confirming is not a
    // sign-in).
    let from = sent.length;
    const retries: number[] = [];
    const first = await User.loginWithMFA(
      'ana',
      PASSWORD,
      pickFirst,
      (_id: string, context: { retries: number }) => {
        retries.push(context.retries);
        return Promise.resolve({ code: verifyCode });
      },
    );
    expect(first._id).toBe(userId);
    expect(retries).toEqual([0]);
    expect(paths(from)).toEqual([
      `POST /user/${APP_KEY}/login`,
      `POST /user/${APP_KEY}/mfa/challenge`,
      `POST /user/${APP_KEY}/mfa/complete`,
    ]);

    // A code that logged in never logs in again (RFC 6238 5.2): the SDK
    // retries and the next period's code completes the login.
    await User.logout();
    from = sent.length;
    retries.length = 0;
    const second = await User.loginWithMFA(
      'ana',
      PASSWORD,
      pickFirst,
      (_id: string, context: { retries: number }) => {
        retries.push(context.retries);
        return Promise.resolve({
          code: context.retries === 0 ? verifyCode : codeOf(secret, 1),
          trustDevice: true,
        });
      },
    );
    expect(second._id).toBe(userId);
    expect(retries).toEqual([0, 1]);
    expect(paths(from)).toEqual([
      `POST /user/${APP_KEY}/login`,
      `POST /user/${APP_KEY}/mfa/challenge`,
      `POST /user/${APP_KEY}/mfa/complete`,
      `POST /user/${APP_KEY}/mfa/complete`,
    ]);
    await expect(User.me()).resolves.toMatchObject({ _id: userId });

    // The remembered device logs in without a challenge.
    await User.logout();
    from = sent.length;
    const again = await User.loginWithMFA(
      'ana',
      PASSWORD,
      () => Promise.reject(new Error('no challenge expected')),
      () => Promise.reject(new Error('no challenge expected')),
    );
    expect(again._id).toBe(userId);
    expect(paths(from)).toEqual([`POST /user/${APP_KEY}/login`]);

    // A recovery code logs in once.
    await User.logout();
    const recovered = await User.loginWithRecoveryCode(
      'ana',
      PASSWORD,
      recoveryCodes[0] as string,
    );
    expect(recovered._id).toBe(userId);
    await User.logout();
    await expect(
      User.loginWithRecoveryCode('ana', PASSWORD, recoveryCodes[0] as string),
    ).rejects.toMatchObject({ name: 'InvalidCredentialsError' });

    // Off again: a plain login works.
    await User.loginWithRecoveryCode(
      'ana',
      PASSWORD,
      recoveryCodes[1] as string,
    );
    // Listed again as Kinvey lists them: the unused ones, in order.
    await expect(MFA.listRecoveryCodes()).resolves.toEqual(
      recoveryCodes.slice(2),
    );
    await MFA.disable();
    expect(await MFA.isEnabled()).toBe(false);
    await User.logout();
    await expect(User.login('ana', PASSWORD)).resolves.toMatchObject({
      _id: userId,
    });
    await User.logout();
  });

  it('answers Kinvey errors to a wrong code, a stranger, and an unknown authenticator', async () => {
    const ana = await t.signup('bea');
    const added = await t.http
      .post(`/user/${APP_KEY}/${ana.id}/authenticators`)
      .set('Authorization', ana.auth)
      .send({ name: 'phone' })
      .expect(201);
    const verify = (code: string, auth = ana.auth) =>
      t.http
        .post(
          `/user/${APP_KEY}/${ana.id}/authenticators/${added.body.id}/verify`,
        )
        .set('Authorization', auth)
        .send({ code });
    const wrong = await verify('000000').expect(400);
    expect(wrong.body).toEqual(kinveyError('BadRequest'));
    const other = await t.signup('cid');
    await verify(codeOf(added.body.config.secret), other.auth).expect(401);
    await t.http
      .delete(`/user/${APP_KEY}/${ana.id}/authenticators/nope/`)
      .set(
        'Authorization',
        `Basic ${Buffer.from(`${APP_KEY}:${MASTER_SECRET}`).toString('base64')}`,
      )
      .expect(404);
    // Unverified: MFA is not on yet, so the password alone still logs in.
    const login = await t.login('bea', PASSWORD).expect(200);
    expect(login.body.mfaRequired).toBeUndefined();
  });

  it('takes an MFA session token for the challenge and one completion only', async () => {
    const dee = await t.signup('dee');
    const added = await t.http
      .post(`/user/${APP_KEY}/${dee.id}/authenticators`)
      .set('Authorization', dee.auth)
      .send({ name: 'phone' })
      .expect(201);
    const secret = added.body.config.secret as string;
    await t.http
      .post(`/user/${APP_KEY}/${dee.id}/authenticators/${added.body.id}/verify`)
      .set('Authorization', dee.auth)
      .send({ code: codeOf(secret) })
      .expect(200);
    const login = await t.login('dee', PASSWORD).expect(200);
    expect(login.body).toEqual({
      mfaRequired: true,
      mfaSessionToken: expect.any(String),
      userId: dee.id,
      authenticators: [{ id: added.body.id, name: 'phone', type: 'totp' }],
    });
    const mfaAuth = `KinveyMFA ${login.body.mfaSessionToken as string}`;
    const mfaCall = (step: string, body: object, auth = mfaAuth) =>
      t.http
        .post(`/user/${APP_KEY}/mfa/${step}`)
        .set('Authorization', auth)
        .send(body);
    const early = await mfaCall('complete', { code: codeOf(secret, 1) });
    expect([early.status, early.body]).toEqual([
      400,
      kinveyError('BadRequest'),
    ]);
    const forged = await mfaCall(
      'challenge',
      { authenticatorId: added.body.id },
      'KinveyMFA forged',
    );
    expect([forged.status, forged.body]).toEqual([
      401,
      kinveyError('InvalidCredentials'),
    ]);
    await mfaCall('challenge', { authenticatorId: 'nope' }).expect(404);
    await mfaCall('challenge', { authenticatorId: added.body.id }).expect(200);
    const done = await mfaCall('complete', { code: codeOf(secret, 1) }).expect(
      200,
    );
    expect(done.body).toEqual({
      user: expect.objectContaining({ _id: dee.id, username: 'dee' }),
      authToken: expect.any(String),
    });
    await t.http
      .get(`/user/${APP_KEY}/_me`)
      .set('Authorization', `Kinvey ${done.body.authToken as string}`)
      .expect(200);
    await mfaCall('complete', { code: codeOf(secret, -1) }).expect(401);
  });
});
