import { CLOCK, FixedClock, hashToken } from '@quitanda/kernel';
import { newTestService } from '@quitanda/testing';

import { TEST_OPTIONS } from '../../testing/marketplace-test-module';
import {
  appCaller,
  masterOf,
  testUser,
  userCaller,
} from '../../testing/principals';
import { MARKETPLACE_OPTIONS } from '../common/marketplace.constants';
import { MarketplaceErrorCode } from '../common/marketplace.errors';
import { CredentialsRepository } from './credentials.repository';
import { LoginService } from './login.service';
import { SessionCache } from './session-cache';
import { SessionsService } from './sessions.service';
import { SecondFactorGate } from './second-factor-gate';

describe('SessionsService', () => {
  let service: SessionsService;
  let credentials: jest.Mocked<CredentialsRepository>;
  let login: jest.Mocked<LoginService>;
  let cache: jest.Mocked<SessionCache>;
  let secondFactor: jest.Mocked<SecondFactorGate>;
  const clock = new FixedClock('2026-06-01T10:00:00.000Z');

  beforeEach(async () => {
    const built = await newTestService(SessionsService, [
      { provide: CLOCK, useValue: clock },
      {
        provide: MARKETPLACE_OPTIONS,
        useValue: { ...TEST_OPTIONS, tokenLifetimeDays: 2 },
      },
    ]);
    service = built.sut;
    credentials = built.mock(CredentialsRepository);
    login = built.mock(LoginService);
    cache = built.mock(SessionCache);
    secondFactor = built.mock(SecondFactorGate);
  });

  it('answers the challenge of a user with MFA instead of a session: nothing stamped, no token issued', async () => {
    login.verify.mockResolvedValue(testUser('u1', { username: 'ana' }));
    const challenge = {
      mfaRequired: true,
      mfaSessionToken: 't',
      userId: 'u1',
      authenticators: [],
    };
    secondFactor.gate.mockResolvedValue(challenge);
    const body = { username: 'ana', password: 'p', deviceToken: 'd' };
    await expect(service.logIn(appCaller(), body)).resolves.toBe(challenge);
    expect(secondFactor.gate).toHaveBeenCalledWith('kid_test', 'u1', body);
    expect(credentials.setLastLogin).not.toHaveBeenCalled();
    expect(credentials.insertToken).not.toHaveBeenCalled();
  });

  it('issues a fresh token and stores only its digest, expiring after the lifetime', async () => {
    const token = await service.issue('kid_test', 'u1');
    const other = await service.issue('kid_test', 'u1');
    expect(token).not.toBe(other);
    expect(credentials.insertToken).toHaveBeenNthCalledWith(
      1,
      'kid_test',
      'u1',
      hashToken(token),
      new Date('2026-06-03T10:00:00.000Z'),
      clock.now(),
    );
  });

  it('logs in with trimmed credentials, records the login and replies with the token', async () => {
    login.verify.mockResolvedValue(testUser('u1', { username: 'ana' }));
    credentials.setLastLogin.mockResolvedValue({
      _id: 'u1',
      username: 'ana@example.org',
      _kmd: { lmt: 'x' },
    });
    const reply = await service.logIn(appCaller(), {
      username: ' ana ',
      password: ' secret ',
    });
    expect(login.verify).toHaveBeenCalledWith('kid_test', 'ana', 'secret');
    expect(credentials.setLastLogin).toHaveBeenCalledWith(
      'kid_test',
      'u1',
      clock.now().toISOString(),
    );
    const token = (reply['_kmd'] as { authtoken: string }).authtoken;
    expect(reply).toEqual({
      _id: 'u1',
      username: 'ana@example.org',
      email: 'ana@example.org',
      _kmd: { lmt: 'x', authtoken: token },
    });
    expect(credentials.insertToken).toHaveBeenCalledWith(
      'kid_test',
      'u1',
      hashToken(token),
      expect.any(Date),
      clock.now(),
    );
  });

  it('keeps a stored e-mail and adds none for a username that is not one', async () => {
    login.verify.mockResolvedValue(testUser('u1'));
    credentials.setLastLogin.mockResolvedValueOnce({
      _id: 'u1',
      username: 'ana',
    });
    await expect(
      service.logIn(masterOf(), { username: 'ana', password: 'p' }),
    ).resolves.not.toHaveProperty('email');
    credentials.setLastLogin.mockResolvedValueOnce({
      _id: 'u1',
      username: 'x@y.z',
      email: 'ana@example.org',
    });
    await expect(
      service.logIn(masterOf(), { username: 'x@y.z', password: 'p' }),
    ).resolves.toMatchObject({ email: 'ana@example.org' });
  });

  it('refuses a user caller, a non-object, social login and missing fields before verifying', async () => {
    await expect(
      service.logIn(userCaller('u1'), { username: 'a', password: 'b' }),
    ).rejects.toMatchObject({
      code: MarketplaceErrorCode.InsufficientCredentials,
    });
    await expect(service.logIn(appCaller(), [])).rejects.toMatchObject({
      code: MarketplaceErrorCode.BadRequest,
    });
    await expect(
      service.logIn(appCaller(), { _socialIdentity: {} }),
    ).rejects.toMatchObject({ code: MarketplaceErrorCode.FeatureUnavailable });
    for (const body of [
      { username: '', password: 'b' },
      { username: 'a' },
      { username: 'a', password: 1 },
    ])
      await expect(service.logIn(appCaller(), body)).rejects.toMatchObject({
        code: MarketplaceErrorCode.IncompleteRequestBody,
      });
    expect(login.verify).not.toHaveBeenCalled();
  });

  it('does not issue a token when the password is wrong', async () => {
    login.verify.mockRejectedValue(new Error('wrong password'));
    await expect(
      service.logIn(appCaller(), { username: 'a', password: 'b' }),
    ).rejects.toThrow('wrong password');
    expect(credentials.setLastLogin).not.toHaveBeenCalled();
    expect(credentials.insertToken).not.toHaveBeenCalled();
  });

  it('logs out by revoking the session token and forgetting it in the cache', async () => {
    await service.logOut(userCaller('u1', undefined, 'digest-1'));
    expect(credentials.revokeToken).toHaveBeenCalledWith(
      'kid_test',
      'digest-1',
    );
    expect(cache.forgetToken).toHaveBeenCalledWith('digest-1');
  });

  it('logs out a Basic-authenticated user without revoking anything, and refuses others', async () => {
    await service.logOut(userCaller('u1'));
    expect(credentials.revokeToken).not.toHaveBeenCalled();
    expect(cache.forgetToken).not.toHaveBeenCalled();
    await expect(service.logOut(masterOf())).rejects.toMatchObject({
      code: MarketplaceErrorCode.InsufficientCredentials,
    });
  });
});
