import { Logger } from '@nestjs/common';
import { newTestService } from '@quitanda/testing';

import { userRecord } from '../../testing/records';
import { ERROR_TRACKING_OPTIONS } from '../common/error-tracking.constants';
import { InitialCredentialsRetirement } from './initial-credentials-retirement';

describe('InitialCredentialsRetirement', () => {
  const expires = new Date('2026-06-01T10:00:00.000Z');

  async function retirement(retire: jest.Mock) {
    const built = await newTestService(InitialCredentialsRetirement, [
      {
        provide: ERROR_TRACKING_OPTIONS,
        useValue: { retireInitialCredentials: retire },
      },
    ]);
    return built.sut;
  }

  it("retires root's generated password once it is replaced, and nothing else", async () => {
    const retire = jest.fn().mockResolvedValue(undefined);
    const sut = await retirement(retire);
    await sut.passwordReplaced(
      userRecord({ username: 'ana', passwordExpiresAt: expires }),
    );
    await sut.passwordReplaced(
      userRecord({ username: 'root', passwordExpiresAt: null }),
    );
    expect(retire).not.toHaveBeenCalled();
    await sut.passwordReplaced(
      userRecord({ username: 'root', passwordExpiresAt: expires }),
    );
    expect(retire).toHaveBeenCalledWith(['root_username', 'root_password']);
  });

  it('logs a failure to update the record instead of failing the change', async () => {
    const logged = jest
      .spyOn(Logger.prototype, 'error')
      .mockImplementation(() => undefined);
    try {
      const sut = await retirement(
        jest.fn().mockRejectedValue(new Error('EACCES: permission denied')),
      );
      await expect(
        sut.passwordReplaced(
          userRecord({ username: 'root', passwordExpiresAt: expires }),
        ),
      ).resolves.toBeUndefined();
      expect(logged).toHaveBeenCalledWith(
        expect.stringContaining('EACCES: permission denied'),
      );
    } finally {
      logged.mockRestore();
    }
  });
});
