import { setTimeout as delay } from 'node:timers/promises';

import { DUMMY_PASSWORD_HASH, verifyPassword } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { MarketplaceError } from '../common/marketplace.errors';
import type { MarketplaceModuleOptions } from '../common/marketplace.options';
import type { CredentialsRepository } from './credentials.repository';

const FAILURE_DELAY_MS = 100;
const MAX_FAILURE_DELAY_MS = 1_000;

export interface LoginThrottleDeps {
  readonly attempts: CredentialsRepository;
  readonly clock: Clock;
  readonly options: Pick<
    MarketplaceModuleOptions,
    'loginMaxFailures' | 'loginLockSeconds'
  >;
}

/** What a password login finds: a hash, and whether the account is off. */
export interface PasswordAccount {
  readonly passwordHash: string;
  readonly disabled?: boolean;
}

/**
 * The account `find` returns for `name` in `scope` when `password` is its
 * own, under the login throttle; an unknown name costs the same argon2
 * check as a wrong password. Attempts are counted
 * before the check, so no burst of parallel guesses gets more checks than
 * the limit (a success forgets them). Failures are answered a little later
 * each, then the name is refused for a while, whether it exists or not,
 * and a locked name answers 429 either way, so neither the answer nor its
 * timing tells whether the account exists.
 */
export async function throttledLogin<T extends PasswordAccount>(
  deps: LoginThrottleDeps,
  scope: string,
  name: string,
  password: string,
  find: () => Promise<T | undefined>,
): Promise<T> {
  const attempt = await deps.attempts.countAttempt(
    scope,
    name,
    deps.clock.now(),
    deps.options.loginMaxFailures,
    deps.options.loginLockSeconds,
  );
  if ('lockedUntil' in attempt)
    throw MarketplaceError.tooManyLogins(attempt.lockedUntil, deps.clock.now());
  const account = await find();
  const ok = await verifyPassword(
    password,
    account?.passwordHash ?? DUMMY_PASSWORD_HASH,
  );
  if (!account || !ok || account.disabled) {
    // Slowed before refused: each earlier failure adds a little wait.
    await delay(
      Math.min((attempt.failures - 1) * FAILURE_DELAY_MS, MAX_FAILURE_DELAY_MS),
    );
    throw MarketplaceError.invalidCredentials();
  }
  await deps.attempts.clearFailures(scope, name);
  return account;
}
