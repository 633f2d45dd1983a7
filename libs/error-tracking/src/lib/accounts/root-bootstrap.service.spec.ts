import { CLOCK, FixedClock, hashToken, verifyPassword } from '@quitanda/kernel';
import { newTestService } from '@quitanda/testing';

import { userRecord } from '../../testing/records';
import { ERROR_TRACKING_OPTIONS } from '../common/error-tracking.constants';
import { ErrorTrackingDatabase } from '../persistence/error-tracking.database';
import type { Transaction } from '../persistence/error-tracking.database';
import { AccountsRepository } from './accounts.repository';
import {
  INITIAL_ROOT_TOKEN_NAME,
  RootBootstrapService,
} from './root-bootstrap.service';

const NOW = new Date('2026-06-01T10:00:00.000Z');
const ROOT = userRecord({ id: 1, username: 'root', isAdmin: true });
const CONFIGURED = 'glpat-configured-root-token';

describe('RootBootstrapService', () => {
  let accounts: jest.Mocked<AccountsRepository>;
  const tx = {} as Transaction;

  async function bootstrap(initialRootToken?: string) {
    const built = await newTestService(RootBootstrapService, [
      { provide: CLOCK, useValue: new FixedClock(NOW) },
      { provide: ERROR_TRACKING_OPTIONS, useValue: { initialRootToken } },
    ]);
    accounts = built.mock(AccountsRepository);
    built
      .mock(ErrorTrackingDatabase)
      .transaction.mockImplementation((work) => work(tx));
    accounts.insertUser.mockResolvedValue(ROOT);
    return built.sut;
  }

  /** Every repository call ran in the transaction, after its lock. */
  function expectAllUnderTheLock(): void {
    expect(accounts.lockRootBootstrap).toHaveBeenCalledWith(tx);
    const lockedAt = accounts.lockRootBootstrap.mock.invocationCallOrder[0];
    for (const method of [
      accounts.findUserByUsername,
      accounts.countUsers,
      accounts.insertUser,
      accounts.insertToken,
      accounts.revokeOtherTokensNamed,
    ])
      for (const [i, call] of method.mock.calls.entries()) {
        expect(call[call.length - 1]).toBe(tx);
        expect(method.mock.invocationCallOrder[i]).toBeGreaterThan(
          lockedAt as number,
        );
      }
  }

  it("retires root's generated password once one was chosen for root, or root is gone", async () => {
    const service = await bootstrap();
    accounts.findUserByUsername.mockResolvedValue({
      ...ROOT,
      passwordExpiresAt: NOW,
    });
    await expect(service.retired()).resolves.toEqual([]);
    accounts.findUserByUsername.mockResolvedValue({
      ...ROOT,
      passwordExpiresAt: null,
    });
    await expect(service.retired()).resolves.toEqual([
      'root_username',
      'root_password',
    ]);
    accounts.findUserByUsername.mockResolvedValue(undefined);
    await expect(service.retired()).resolves.toEqual([
      'root_username',
      'root_password',
    ]);
  });

  it('makes root with a generated password and token on an empty database', async () => {
    const service = await bootstrap();
    accounts.findUserByUsername.mockResolvedValue(undefined);
    accounts.countUsers.mockResolvedValue(0);
    const generated = await service.run();

    expect(generated).toEqual({
      root_username: 'root',
      root_password: expect.any(String),
      root_token: expect.stringMatching(/^glpat-/),
    });
    const [user] = accounts.insertUser.mock.calls[0] ?? [];
    expect(user).toMatchObject({
      username: 'root',
      isAdmin: true,
      // The web UI asks for a new password at the first sign-in.
      passwordExpiresAt: NOW,
      createdAt: NOW,
    });
    await expect(
      verifyPassword(
        generated?.['root_password'] as string,
        user?.passwordHash as string,
      ),
    ).resolves.toBe(true);
    expect(accounts.insertToken).toHaveBeenCalledTimes(1);
    expect(accounts.insertToken).toHaveBeenCalledWith(
      {
        userId: 1,
        name: 'initial root token',
        digest: hashToken(generated?.['root_token'] as string),
        scopes: ['api'],
        expiresAt: null,
        createdAt: NOW,
      },
      tx,
    );
    expect(accounts.findUserByUsername).toHaveBeenCalledWith('root', tx);
    expectAllUnderTheLock();
  });

  it('leaves a database that has users but no root alone without a configured token', async () => {
    const service = await bootstrap();
    accounts.findUserByUsername.mockResolvedValue(undefined);
    accounts.countUsers.mockResolvedValue(2);
    await expect(service.run()).resolves.toBeUndefined();
    expect(accounts.insertUser).not.toHaveBeenCalled();
    expect(accounts.insertToken).not.toHaveBeenCalled();
    expectAllUnderTheLock();
  });

  it('does nothing when root exists and no token is configured', async () => {
    const service = await bootstrap();
    accounts.findUserByUsername.mockResolvedValue(ROOT);
    await expect(service.run()).resolves.toBeUndefined();
    expect(accounts.insertUser).not.toHaveBeenCalled();
    expect(accounts.insertToken).not.toHaveBeenCalled();
    expect(accounts.revokeOtherTokensNamed).not.toHaveBeenCalled();
  });

  it('makes root with the configured token (and no generated one) even beside other users', async () => {
    const service = await bootstrap(CONFIGURED);
    accounts.findUserByUsername.mockResolvedValue(undefined);
    accounts.countUsers.mockResolvedValue(3);
    const generated = await service.run();

    expect(generated).toEqual({
      root_username: 'root',
      root_password: expect.any(String),
    });
    expect(accounts.insertUser).toHaveBeenCalledTimes(1);
    expect(accounts.insertToken).toHaveBeenCalledTimes(1);
    expect(accounts.insertToken).toHaveBeenCalledWith(
      expect.objectContaining({
        userId: 1,
        name: INITIAL_ROOT_TOKEN_NAME,
        digest: hashToken(CONFIGURED),
        scopes: ['api'],
      }),
      tx,
    );
    expectAllUnderTheLock();
  });

  it("replaces an existing root's previous configured token with the configured one", async () => {
    const service = await bootstrap(CONFIGURED);
    accounts.findUserByUsername.mockResolvedValue(ROOT);
    await expect(service.run()).resolves.toBeUndefined();
    expect(accounts.insertUser).not.toHaveBeenCalled();
    expect(accounts.revokeOtherTokensNamed).toHaveBeenCalledWith(
      1,
      INITIAL_ROOT_TOKEN_NAME,
      hashToken(CONFIGURED),
      tx,
    );
    expect(accounts.insertToken).toHaveBeenCalledWith(
      expect.objectContaining({
        name: INITIAL_ROOT_TOKEN_NAME,
        digest: hashToken(CONFIGURED),
      }),
      tx,
    );
    expectAllUnderTheLock();
  });
});
