import { setTimeout as delay } from 'node:timers/promises';

import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, DUMMY_PASSWORD_HASH, verifyPassword } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { MARKETPLACE_OPTIONS } from '../common/marketplace.constants';
import { MarketplaceError } from '../common/marketplace.errors';
import type { MarketplaceModuleOptions } from '../common/marketplace.options';
import { MAX_PASSWORD, MAX_USERNAME } from './credential-limits';
import { CredentialsRepository } from './credentials.repository';
import type { StoredUser } from './stored-user';

const FAILURE_DELAY_MS = 100;
const MAX_FAILURE_DELAY_MS = 1_000;

/**
 * Checks a username and password. Attempts are counted per username, each
 * one before its password is checked, so no burst of parallel guesses gets
 * more checks than the limit (a success forgets them). Failures are answered
 * a little later each, then the name is refused for a while, whether it
 * exists or not, and a locked name answers 429 either way, so neither the
 * answer nor its timing tells whether the user exists.
 */
@Injectable()
export class LoginService {
  constructor(
    private readonly users: CredentialsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MARKETPLACE_OPTIONS)
    private readonly options: MarketplaceModuleOptions,
  ) {}

  async verify(
    appKey: string,
    username: string,
    password: string,
  ): Promise<StoredUser> {
    // No signup takes these: refused before they are counted, stored or hashed.
    if (username.length > MAX_USERNAME || password.length > MAX_PASSWORD)
      throw MarketplaceError.invalidCredentials();
    const attempt = await this.users.countAttempt(
      appKey,
      username,
      this.clock.now(),
      this.options.loginMaxFailures,
      this.options.loginLockSeconds,
    );
    if ('lockedUntil' in attempt)
      throw MarketplaceError.tooManyLogins(
        attempt.lockedUntil,
        this.clock.now(),
      );
    const user = await this.users.findByUsername(appKey, username);
    const ok = await verifyPassword(
      password,
      user?.passwordHash ?? DUMMY_PASSWORD_HASH,
    );
    if (!user || !ok || user.disabled) {
      // Slowed before refused: each earlier failure adds a little wait.
      await delay(
        Math.min(
          (attempt.failures - 1) * FAILURE_DELAY_MS,
          MAX_FAILURE_DELAY_MS,
        ),
      );
      throw MarketplaceError.invalidCredentials();
    }
    await this.users.clearFailures(appKey, username);
    return user;
  }
}
