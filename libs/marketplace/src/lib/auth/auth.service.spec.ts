import { CLOCK, FixedClock, hashToken } from '@quitanda/kernel';
import { newTestService } from '@quitanda/testing';

import { testApp, testUser } from '../../testing/principals';
import { AppsService } from '../apps/apps.service';
import {
  MarketplaceError,
  MarketplaceErrorCode,
} from '../common/marketplace.errors';
import { AuthService } from './auth.service';
import { CredentialsRepository } from './credentials.repository';
import { FlexCallbackCredentials } from './flex-callback-credentials';
import { LoginService } from './login.service';
import { SessionCache } from './session-cache';

const APP = testApp({
  appSecretDigest: hashToken('app-secret'),
  masterSecretDigest: hashToken('master-secret'),
});
const basic = (name: string, secret: string) =>
  `Basic ${Buffer.from(`${name}:${secret}`).toString('base64')}`;

describe('AuthService', () => {
  let service: AuthService;
  let apps: jest.Mocked<AppsService>;
  let credentials: jest.Mocked<CredentialsRepository>;
  let login: jest.Mocked<LoginService>;
  let sessions: jest.Mocked<SessionCache>;
  let flexCallbacks: jest.Mocked<FlexCallbackCredentials>;
  const clock = new FixedClock('2026-06-01T10:00:00.000Z');

  beforeEach(async () => {
    const built = await newTestService(AuthService, [
      { provide: CLOCK, useValue: clock },
    ]);
    service = built.sut;
    apps = built.mock(AppsService);
    credentials = built.mock(CredentialsRepository);
    login = built.mock(LoginService);
    sessions = built.mock(SessionCache);
    flexCallbacks = built.mock(FlexCallbackCredentials);
    flexCallbacks.callbackKind.mockResolvedValue(undefined);
    apps.get.mockResolvedValue(APP);
  });

  it('fails on an unknown app before reading the header', async () => {
    apps.get.mockRejectedValue(MarketplaceError.appNotFound('kid_x'));
    await expect(
      service.authenticate('kid_x', 'master-secret'),
    ).rejects.toMatchObject({ code: MarketplaceErrorCode.AppNotFound });
  });

  it('refuses a missing or unreadable header', async () => {
    for (const header of [undefined, '  ', 'Bearer a b', 'Basic !!!'])
      await expect(
        service.authenticate('kid_test', header),
      ).rejects.toMatchObject({
        code: MarketplaceErrorCode.InvalidCredentials,
      });
  });

  it('tells the master secret from the app secret, bare or as Basic with the app key', async () => {
    await expect(
      service.authenticate('kid_test', 'master-secret'),
    ).resolves.toEqual({ kind: 'master', app: APP });
    await expect(
      service.authenticate('kid_test', basic('kid_test', 'app-secret')),
    ).resolves.toEqual({ kind: 'app', app: APP });
    await expect(
      service.authenticate('kid_test', 'other'),
    ).rejects.toMatchObject({ code: MarketplaceErrorCode.InvalidCredentials });
    await expect(
      service.authenticate('kid_test', basic('kid_test', 'other')),
    ).rejects.toMatchObject({ code: MarketplaceErrorCode.InvalidCredentials });
    expect(login.verify).not.toHaveBeenCalled();
  });

  it("takes a secret handed to the app's Flex service as its kind, saying which service, and only after the app's own", async () => {
    flexCallbacks.callbackKind.mockImplementation((appKey, candidate) =>
      Promise.resolve(
        appKey === 'kid_test' && candidate === 'handed-secret'
          ? { kind: 'master', service: 'produce' }
          : undefined,
      ),
    );
    await expect(
      service.authenticate('kid_test', basic('kid_test', 'handed-secret')),
    ).resolves.toEqual({ kind: 'master', app: APP, flexService: 'produce' });
    await expect(
      service.authenticate('kid_test', 'master-secret'),
    ).resolves.toEqual({ kind: 'master', app: APP });
    expect(flexCallbacks.callbackKind).toHaveBeenCalledTimes(1);
    await expect(
      service.authenticate('kid_test', basic('kid_test', 'other')),
    ).rejects.toMatchObject({ code: MarketplaceErrorCode.InvalidCredentials });
  });

  it('logs a user in by Basic username and password through the login', async () => {
    const user = testUser('u1', { username: 'ana' });
    login.verify.mockResolvedValue(user);
    await expect(
      service.authenticate('kid_test', basic('ana', 'pa:ss')),
    ).resolves.toEqual({ kind: 'user', app: APP, user });
    expect(login.verify).toHaveBeenCalledWith('kid_test', 'ana', 'pa:ss');
  });

  it('answers a session token from the cache without the database', async () => {
    const user = testUser('u1');
    sessions.get.mockReturnValue(user);
    await expect(
      service.authenticate('kid_test', 'Kinvey tok'),
    ).resolves.toEqual({
      kind: 'user',
      app: APP,
      user,
      tokenDigest: hashToken('tok'),
    });
    expect(sessions.get).toHaveBeenCalledWith(
      'kid_test',
      hashToken('tok'),
      clock.now(),
    );
    expect(credentials.findSession).not.toHaveBeenCalled();
  });

  it('reads a session the cache lacks and remembers it until the token expires', async () => {
    const user = testUser('u1');
    const expiresAt = new Date('2026-06-02T00:00:00.000Z');
    credentials.findSession.mockResolvedValue({ user, expiresAt });
    await expect(
      service.authenticate('kid_test', 'Kinvey tok'),
    ).resolves.toMatchObject({ kind: 'user', user });
    expect(credentials.findSession).toHaveBeenCalledWith(
      'kid_test',
      hashToken('tok'),
      clock.now(),
    );
    expect(sessions.set).toHaveBeenCalledWith(
      'kid_test',
      hashToken('tok'),
      user,
      expiresAt,
      clock.now(),
    );
  });

  it('refuses an unknown, expired or revoked token and caches nothing', async () => {
    credentials.findSession.mockResolvedValue(undefined);
    await expect(
      service.authenticate('kid_test', 'Kinvey gone'),
    ).rejects.toMatchObject({ code: MarketplaceErrorCode.InvalidCredentials });
    expect(sessions.set).not.toHaveBeenCalled();
  });
});
