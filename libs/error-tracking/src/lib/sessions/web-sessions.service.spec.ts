import { CLOCK, FixedClock, hashToken } from '@quitanda/kernel';
import { newTestService } from '@quitanda/testing';

import { userRecord } from '../../testing/records';
import { AccountsService } from '../accounts/accounts.service';
import { ERROR_TRACKING_OPTIONS } from '../common/error-tracking.constants';
import { ErrorTrackingError } from '../common/error-tracking.errors';
import { THROTTLE_RESET_MS } from './sign-in-throttle';
import { WebSessionsRepository } from './web-sessions.repository';
import { WebSessionsService } from './web-sessions.service';

const NOW = new Date('2026-06-01T10:00:00.000Z');
const user = userRecord({ id: 7, username: 'Ada' });

describe('WebSessionsService', () => {
  let service: WebSessionsService;
  let repository: jest.Mocked<WebSessionsRepository>;
  let accounts: jest.Mocked<AccountsService>;

  beforeEach(async () => {
    const built = await newTestService(WebSessionsService, [
      { provide: CLOCK, useValue: new FixedClock(NOW) },
      {
        provide: ERROR_TRACKING_OPTIONS,
        useValue: {
          sessionMinutes: 60,
          signInMaxFailures: 5,
          signInLockSeconds: 900,
        },
      },
    ]);
    service = built.sut;
    repository = built.mock(WebSessionsRepository);
    accounts = built.mock(AccountsService);
    repository.countAttempt.mockResolvedValue({ failures: 0 });
  });

  describe('signIn', () => {
    it('counts the attempt under the trimmed lower-case name with the configured delays', async () => {
      accounts.checkPassword.mockResolvedValue(undefined);
      await service.signIn('  Ada ', 'pw');
      expect(repository.countAttempt).toHaveBeenCalledWith(
        'ada',
        NOW,
        THROTTLE_RESET_MS,
        [0, 0, 1_000, 2_000, 900_000],
      );
      expect(accounts.checkPassword).toHaveBeenCalledWith('Ada', 'pw');
    });

    it('answers a wrong password as invalid and opens no session', async () => {
      accounts.checkPassword.mockResolvedValue(undefined);
      await expect(service.signIn('ada', 'wrong')).resolves.toEqual({
        kind: 'invalid',
      });
      expect(repository.clearFailures).not.toHaveBeenCalled();
      expect(repository.insert).not.toHaveBeenCalled();
    });

    it('refuses a throttled name without checking its password, for at least a second', async () => {
      repository.countAttempt.mockResolvedValueOnce({
        blockedUntil: new Date(NOW.getTime() + 2_001),
      });
      await expect(service.signIn('ada', 'pw')).resolves.toEqual({
        kind: 'throttled',
        retryAfterSeconds: 3,
      });
      repository.countAttempt.mockResolvedValueOnce({
        // The database's clock may be a little behind this one.
        blockedUntil: new Date(NOW.getTime() - 10),
      });
      await expect(service.signIn('ada', 'pw')).resolves.toEqual({
        kind: 'throttled',
        retryAfterSeconds: 1,
      });
      expect(accounts.checkPassword).not.toHaveBeenCalled();
    });

    it('opens a session stored by the digest of its id, for the configured time, and forgets the failures', async () => {
      accounts.checkPassword.mockResolvedValue(user);
      const result = await service.signIn('Ada', 'pw');
      if (result.kind !== 'signed-in') throw new Error(result.kind);
      expect(result.session.user).toBe(user);
      expect(result.session.id).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      expect(repository.clearFailures).toHaveBeenCalledWith('ada');
      expect(repository.deleteExpired).toHaveBeenCalledWith(NOW);
      expect(repository.insert).toHaveBeenCalledWith(
        hashToken(result.session.id),
        7,
        NOW,
        new Date('2026-06-01T11:00:00.000Z'),
      );
      expect(service.ttlSeconds).toBe(3_600);
    });
  });

  describe('resolve', () => {
    it('finds the live session of an active user by the digest of its id', async () => {
      repository.findUserId.mockResolvedValue(7);
      accounts.getUser.mockResolvedValue(user);
      await expect(service.resolve('cookie')).resolves.toEqual({
        id: 'cookie',
        user,
      });
      expect(repository.findUserId).toHaveBeenCalledWith(
        hashToken('cookie'),
        NOW,
      );
      expect(accounts.getUser).toHaveBeenCalledWith(7);
    });

    it('has no session for no cookie, an overlong one, or an unknown or expired one', async () => {
      await expect(service.resolve(undefined)).resolves.toBeUndefined();
      await expect(service.resolve('x'.repeat(129))).resolves.toBeUndefined();
      expect(repository.findUserId).not.toHaveBeenCalled();
      repository.findUserId.mockResolvedValue(undefined);
      await expect(service.resolve('cookie')).resolves.toBeUndefined();
      expect(accounts.getUser).not.toHaveBeenCalled();
    });

    it('has no session for a blocked or deleted user', async () => {
      repository.findUserId.mockResolvedValue(7);
      accounts.getUser.mockResolvedValueOnce(
        userRecord({ id: 7, state: 'blocked' }),
      );
      await expect(service.resolve('cookie')).resolves.toBeUndefined();
      accounts.getUser.mockRejectedValueOnce(
        ErrorTrackingError.notFound('User'),
      );
      await expect(service.resolve('cookie')).resolves.toBeUndefined();
    });

    it('lets a failure other than a missing user through', async () => {
      const failure = new Error('database is down');
      repository.findUserId.mockResolvedValue(7);
      accounts.getUser.mockRejectedValue(failure);
      await expect(service.resolve('cookie')).rejects.toBe(failure);
    });
  });

  it('signs out by deleting the session stored under the digest', async () => {
    await service.signOut('cookie');
    expect(repository.delete).toHaveBeenCalledWith(hashToken('cookie'));
  });
});
