import { Inject, Injectable } from '@nestjs/common';
import { CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { MARKETPLACE_OPTIONS } from '../common/marketplace.constants';
import { MarketplaceError } from '../common/marketplace.errors';
import type { MarketplaceModuleOptions } from '../common/marketplace.options';
import { MAX_PASSWORD, MAX_USERNAME } from './credential-limits';
import { CredentialsRepository } from './credentials.repository';
import { throttledLogin } from './login-throttle';
import type { StoredUser } from './stored-user';

/**
 * Checks a username and password, throttled per username
 * (`throttledLogin`); an unknown user costs the same password check.
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
    const deps = {
      attempts: this.users,
      clock: this.clock,
      options: this.options,
    };
    return throttledLogin(deps, appKey, username, password, () =>
      this.users.findByUsername(appKey, username),
    );
  }
}
