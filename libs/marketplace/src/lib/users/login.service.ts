import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, DUMMY_PASSWORD_HASH, verifyPassword } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { invalidCredentials } from '../auth/access';
import { MARKETPLACE_OPTIONS } from '../marketplace.constants';
import { MarketplaceError, MarketplaceErrorCode } from '../marketplace.errors';
import type { MarketplaceModuleOptions } from '../marketplace.options';
import { UsersRepository } from './users.repository';
import type { StoredUser } from './users.repository';

/**
 * Checks a username and password. Failures are counted per username
 * whether it exists or not, and a locked name answers 429 either way, so
 * neither the answer nor its timing tells whether the user exists.
 */
@Injectable()
export class LoginService {
  constructor(
    private readonly users: UsersRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MARKETPLACE_OPTIONS)
    private readonly options: MarketplaceModuleOptions,
  ) {}

  async verify(
    appKey: string,
    username: string,
    password: string,
  ): Promise<StoredUser> {
    const now = this.clock.now();
    const attempts = await this.users.attempts(appKey, username);
    const lockedUntil = attempts?.lockedUntil;
    if (lockedUntil && lockedUntil > now)
      throw new MarketplaceError(
        MarketplaceErrorCode.TooManyRequests,
        'Too many failed logins for this username. Please retry later.',
        `retry after ${lockedUntil.toISOString()}`,
      );
    const user = await this.users.findByUsername(appKey, username);
    const ok = await verifyPassword(
      password,
      user?.passwordHash ?? DUMMY_PASSWORD_HASH,
    );
    if (!user || !ok || user.disabled) {
      await this.users.recordFailure(
        appKey,
        username,
        now,
        this.options.loginMaxFailures,
        this.options.loginLockSeconds,
      );
      throw invalidCredentials();
    }
    if (attempts) await this.users.clearFailures(appKey, username);
    return user;
  }
}
