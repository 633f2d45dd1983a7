import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, hashToken, randomToken } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import type { UserRecord } from '../accounts/account.types';
import { AccountsService } from '../accounts/accounts.service';
import { ERROR_TRACKING_OPTIONS } from '../common/error-tracking.constants';
import { ErrorTrackingError } from '../common/error-tracking.errors';
import type { ErrorTrackingModuleOptions } from '../common/error-tracking.options';
import { THROTTLE_RESET_MS, signInDelaysMs } from './sign-in-throttle';
import { WebSessionsRepository } from './web-sessions.repository';

export interface WebSession {
  /** The cookie's value (never stored; only its SHA-256 is). */
  readonly id: string;
  readonly user: UserRecord;
}

export type SignInResult =
  | { readonly kind: 'signed-in'; readonly session: WebSession }
  | { readonly kind: 'invalid' }
  | { readonly kind: 'throttled'; readonly retryAfterSeconds: number };

/** Server-side sessions of the web UI. */
@Injectable()
export class WebSessionsService {
  /** How long a session lives after sign-in (`ERROR_TRACKING_SESSION_MINUTES`). */
  readonly ttlSeconds: number;
  /** The block after each failure, the n-th at n - 1; the last beyond. */
  private readonly delaysMs: readonly number[];

  constructor(
    private readonly repository: WebSessionsRepository,
    private readonly accounts: AccountsService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ERROR_TRACKING_OPTIONS) options: ErrorTrackingModuleOptions,
  ) {
    this.ttlSeconds = options.sessionMinutes * 60;
    this.delaysMs = signInDelaysMs({
      maxFailures: options.signInMaxFailures,
      lockMs: options.signInLockSeconds * 1000,
    });
  }

  /**
   * Checks the password unless the username is throttled; every attempt
   * is counted before its check, and every failure (known user or not)
   * slows the next attempts for that name alike.
   */
  async signIn(username: string, password: string): Promise<SignInResult> {
    const key = username.trim().toLowerCase().slice(0, 255);
    const now = this.clock.now();
    const attempt = await this.repository.countAttempt(
      key,
      now,
      THROTTLE_RESET_MS,
      this.delaysMs,
    );
    if ('blockedUntil' in attempt)
      return {
        kind: 'throttled',
        retryAfterSeconds: Math.max(
          1,
          Math.ceil((attempt.blockedUntil.getTime() - now.getTime()) / 1000),
        ),
      };
    const user = await this.accounts.checkPassword(username.trim(), password);
    if (!user) return { kind: 'invalid' };
    await this.repository.clearFailures(key);
    await this.repository.deleteExpired(now);
    const id = randomToken(32);
    await this.repository.insert(
      hashToken(id),
      user.id,
      now,
      new Date(now.getTime() + this.ttlSeconds * 1000),
    );
    return { kind: 'signed-in', session: { id, user } };
  }

  /** The session behind a cookie value, if live and its user still active. */
  async resolve(id: string | undefined): Promise<WebSession | undefined> {
    if (!id || id.length > 128) return undefined;
    const userId = await this.repository.findUserId(
      hashToken(id),
      this.clock.now(),
    );
    if (userId === undefined) return undefined;
    try {
      const user = await this.accounts.getUser(userId);
      return user.state === 'active' ? { id, user } : undefined;
    } catch (error) {
      if (error instanceof ErrorTrackingError) return undefined;
      throw error;
    }
  }

  async signOut(id: string): Promise<void> {
    await this.repository.delete(hashToken(id));
  }
}
