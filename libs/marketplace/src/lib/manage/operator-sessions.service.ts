import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, hashToken, randomToken } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { MAX_PASSWORD } from '../auth/credential-limits';
import { CredentialsRepository } from '../auth/credentials.repository';
import { throttledLogin } from '../auth/login-throttle';
import { MARKETPLACE_OPTIONS } from '../common/marketplace.constants';
import { MarketplaceError } from '../common/marketplace.errors';
import type { MarketplaceModuleOptions } from '../common/marketplace.options';
import { OperatorsRepository } from './operators.repository';

/**
 * Failed operator logins are counted in the users' `login_attempts`, under
 * this key where an app key would be: no app key has this form.
 */
const OPERATOR_ATTEMPTS_KEY = '(operators)';
const MAX_EMAIL = 254;
/** Live sessions an operator keeps; a login past it ends the oldest. */
export const MAX_OPERATOR_SESSIONS = 20;

export interface Operator {
  readonly id: string;
  readonly email: string;
}

/** Addresses compare without case: one address, one account. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Operators' management sessions (kinvey-cli's `/session`). Logins are
 * throttled per address like users' logins (`throttledLogin`, the same
 * limits), and an unknown address costs the same argon2 verification as a
 * wrong password.
 */
@Injectable()
export class OperatorSessionsService {
  constructor(
    private readonly operators: OperatorsRepository,
    private readonly attempts: CredentialsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MARKETPLACE_OPTIONS)
    private readonly options: MarketplaceModuleOptions,
  ) {}

  async login(
    email: unknown,
    password: unknown,
  ): Promise<{ email: string; token: string }> {
    if (
      typeof email !== 'string' ||
      typeof password !== 'string' ||
      email.length > MAX_EMAIL ||
      password.length > MAX_PASSWORD
    )
      throw MarketplaceError.invalidCredentials();
    const address = normalizeEmail(email);
    const deps = {
      attempts: this.attempts,
      clock: this.clock,
      options: this.options,
    };
    const operator = await throttledLogin(
      deps,
      OPERATOR_ATTEMPTS_KEY,
      address,
      password,
      () => this.operators.findByEmail(address),
    );
    const token = randomToken(32);
    const now = this.clock.now();
    await this.operators.insertSession(
      hashToken(token),
      operator.id,
      new Date(now.getTime() + this.options.tokenLifetimeDays * 86_400_000),
      now,
      MAX_OPERATOR_SESSIONS,
    );
    return { email: operator.email, token };
  }

  /** The operator of a session token; Kinvey's expired-token error otherwise. */
  async authenticate(token: string): Promise<Operator> {
    const operator = await this.operators.findBySession(
      hashToken(token),
      this.clock.now(),
    );
    // kinvey-cli suggests `profile login` on exactly this description.
    if (!operator)
      throw MarketplaceError.invalidCredentials(
        '',
        'Authorization token invalid or expired.',
      );
    return operator;
  }

  logout(token: string): Promise<void> {
    return this.operators.deleteSession(hashToken(token));
  }
}
