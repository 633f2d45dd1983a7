import { Logger } from '@nestjs/common';
import { CLOCK, FixedClock } from '@quitanda/kernel';
import { newTestService } from '@quitanda/testing';

import { TEST_OPTIONS } from '../../testing/marketplace-test-module';
import { MARKETPLACE_OPTIONS } from '../common/marketplace.constants';
import { CredentialsRepository } from './credentials.repository';
import { LoginAttemptsPurgeService } from './login-attempts-purge.service';

const TEN_MINUTES = 10 * 60_000;

describe('LoginAttemptsPurgeService', () => {
  let service: LoginAttemptsPurgeService;
  let credentials: jest.Mocked<CredentialsRepository>;
  const clock = new FixedClock('2026-06-01T10:00:00.000Z');

  beforeEach(async () => {
    const built = await newTestService(LoginAttemptsPurgeService, [
      { provide: CLOCK, useValue: clock },
      {
        provide: MARKETPLACE_OPTIONS,
        useValue: { ...TEST_OPTIONS, loginLockSeconds: 900 },
      },
    ]);
    service = built.sut;
    credentials = built.mock(CredentialsRepository);
    credentials.purgeAttempts.mockResolvedValue(3);
  });

  afterEach(() => {
    service.onApplicationShutdown();
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('forgets the attempts older than the lock window', async () => {
    await expect(service.purge()).resolves.toBe(3);
    expect(credentials.purgeAttempts).toHaveBeenCalledWith(
      new Date('2026-06-01T09:45:00.000Z'),
    );
  });

  it('purges every ten minutes, logs a failed run and keeps going until shutdown', async () => {
    jest.useFakeTimers();
    const logged = jest
      .spyOn(Logger.prototype, 'error')
      .mockImplementation(() => undefined);
    service.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(TEN_MINUTES - 1);
    expect(credentials.purgeAttempts).not.toHaveBeenCalled();

    credentials.purgeAttempts.mockRejectedValueOnce(new Error('db down'));
    await jest.advanceTimersByTimeAsync(1);
    expect(credentials.purgeAttempts).toHaveBeenCalledTimes(1);
    expect(logged).toHaveBeenCalledWith(
      { err: expect.objectContaining({ message: 'db down' }) },
      expect.stringContaining('next run will retry'),
    );

    await jest.advanceTimersByTimeAsync(TEN_MINUTES);
    expect(credentials.purgeAttempts).toHaveBeenCalledTimes(2);

    service.onApplicationShutdown();
    await jest.advanceTimersByTimeAsync(3 * TEN_MINUTES);
    expect(credentials.purgeAttempts).toHaveBeenCalledTimes(2);
  });
});
