import { Inject, Injectable, Logger } from '@nestjs/common';
import type {
  BeforeApplicationShutdown,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { CLOCK, SerialRunner } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { AccountMailer } from './account-mailer';
import { AccountMailRepository } from './account-mail.repository';
import type { ClaimedMail } from './account-mail.repository';
import { TOKEN_LIFETIME_MS } from './account-token-lifetime';

/** A claim outlives the slowest SMTP attempt (nodemailer's timeouts) by far. */
const LEASE_MS = 120_000;
const CLAIM_BATCH = 8;
/** How often each replica looks for mail others queued, or retries came due. */
const POLL_MS = 5_000;
/**
 * Waits between attempts: one attempt more than delays, all well within
 * the hour a mailed link works (older mail is given up, not sent).
 */
export const ACCOUNT_MAIL_RETRY_DELAYS_MS = [10_000, 60_000, 300_000, 900_000];

/**
 * Sends the queued account mail (`AccountMailRepository`), so no request
 * waits on SMTP: woken at once by this replica's requests (`kick`), else
 * it polls. A failed run is logged and the next poll retries.
 */
@Injectable()
export class AccountMailWorker
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  private readonly logger = new Logger('MarketplaceAccountMail');
  private readonly runner = new SerialRunner(
    async () => {
      await this.runOnce();
      await this.scheduleWake();
    },
    (error) =>
      this.logger.error(
        { err: error },
        'Sending account mail failed; the next poll retries',
      ),
  );
  private stopped = false;
  private poll: NodeJS.Timeout | undefined;
  private wake: NodeJS.Timeout | undefined;

  constructor(
    private readonly outbox: AccountMailRepository,
    private readonly mailer: AccountMailer,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.mailer.enabled) return;
    this.poll = setInterval(() => this.kick(), POLL_MS);
    this.poll.unref();
    this.kick();
  }

  /** Stops taking work and lets the run in progress finish (the pool is still open). */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.poll);
    clearTimeout(this.wake);
    await this.runner.stop();
  }

  /** Sends due mail now (or again right after the run in progress). */
  kick(): void {
    if (this.mailer.enabled) this.runner.kick();
  }

  /** Attempts every due mail once, until none is due; how many. */
  async runOnce(): Promise<number> {
    const now = this.clock.now();
    await this.outbox.expire(now, new Date(now.getTime() - TOKEN_LIFETIME_MS));
    let attempted = 0;
    while (!this.stopped) {
      const claimed = await this.outbox.claimDue(
        this.clock.now(),
        LEASE_MS,
        CLAIM_BATCH,
      );
      if (claimed.length === 0) break;
      await Promise.all(claimed.map((mail) => this.attempt(mail)));
      attempted += claimed.length;
    }
    return attempted;
  }

  /** Wakes up for the earliest retry, when that is before the next poll. */
  private async scheduleWake(): Promise<void> {
    if (this.stopped) return;
    const due = await this.outbox.nextDue();
    if (!due) return;
    const wait = due.getTime() - this.clock.now().getTime();
    if (wait >= POLL_MS) return;
    clearTimeout(this.wake);
    this.wake = setTimeout(() => this.kick(), Math.max(0, wait) + 5);
    this.wake.unref();
  }

  private async attempt(mail: ClaimedMail): Promise<void> {
    let error: string | undefined;
    try {
      await this.mailer.send(mail);
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
    }
    if (error === undefined) {
      await this.outbox.settle(mail.id, { status: 'sent' });
      return;
    }
    const delay = ACCOUNT_MAIL_RETRY_DELAYS_MS[mail.attempt - 1];
    if (delay !== undefined) {
      await this.outbox.settle(mail.id, {
        status: 'pending',
        error,
        retryAt: new Date(this.clock.now().getTime() + delay),
      });
      return;
    }
    await this.outbox.settle(mail.id, { status: 'failed', error });
    // The recipient and the body (it may carry a live link) stay out of logs.
    this.logger.warn(
      { mail: mail.id, app: mail.appKey, attempts: mail.attempt, error },
      'Account mail failed for good',
    );
  }
}
