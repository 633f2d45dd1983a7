import { Inject, Injectable, Logger } from '@nestjs/common';
import type {
  BeforeApplicationShutdown,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { CLOCK, inBackground } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { AccountsRepository } from '../accounts/accounts.repository';
import { ERROR_TRACKING_OPTIONS } from '../common/error-tracking.constants';
import { DEFAULT_ALERTS_OPTIONS } from '../common/error-tracking.options';
import type {
  AlertsOptions,
  ErrorTrackingModuleOptions,
} from '../common/error-tracking.options';
import { webhookBody } from './alert-content';
import { AlertComposer } from './alert-content';
import { alertEmail } from './alert-email';
import { AlertLinks } from './alert-links';
import { AlertMailer } from './alert-mailer';
import { AlertSignal } from '../alerting/alert-signal';
import type { ClaimedDelivery } from '../alerting/alert.types';
import { AlertsRepository } from './alerts.repository';
import { WebhookDispatcher } from './webhook-dispatcher';

/** A claim outlives the slowest attempt (10 s timeouts) by a wide margin. */
const LEASE_MS = 120_000;
const FAN_OUT_BATCH = 100;
const CLAIM_BATCH = 8;

export interface WorkerRun {
  readonly fannedOut: number;
  readonly attempted: number;
}

/**
 * Delivers recorded alerts: turns each into deliveries (hooks, e-mails),
 * then sends what is due, retrying with backoff under the same delivery id.
 * Every replica runs one; rows are claimed with `SKIP LOCKED` and a lease
 * (no session state, so it works behind PgBouncer in transaction mode), so
 * each delivery is attempted by one replica at a time. Woken at once by a
 * local flush that recorded alerts, otherwise polls.
 */
@Injectable()
export class AlertsWorker
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  private readonly logger = new Logger('ErrorTrackingAlerts');
  private readonly options: AlertsOptions;
  private running: Promise<WorkerRun> | undefined;
  private again = false;
  private stopped = false;
  private poll: NodeJS.Timeout | undefined;
  private wake: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly repository: AlertsRepository,
    private readonly accounts: AccountsRepository,
    private readonly composer: AlertComposer,
    private readonly dispatcher: WebhookDispatcher,
    private readonly mailer: AlertMailer,
    private readonly links: AlertLinks,
    private readonly signal: AlertSignal,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ERROR_TRACKING_OPTIONS) options: ErrorTrackingModuleOptions,
  ) {
    this.options = { ...DEFAULT_ALERTS_OPTIONS, ...options.alerts };
  }

  onApplicationBootstrap(): void {
    if (this.options.pollSeconds <= 0) return;
    this.unsubscribe = this.signal.subscribe(() => this.kick());
    this.poll = setInterval(() => this.kick(), this.options.pollSeconds * 1000);
    this.poll.unref();
    this.kick();
  }

  /** Stops taking work and lets the run in progress finish (the pool is still open). */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    clearInterval(this.poll);
    clearTimeout(this.wake);
    await this.running?.catch(() => undefined);
  }

  /** Runs now (or again right after the run in progress). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.runOnce()
      .catch((error: unknown) => {
        this.logger.error(
          { err: error },
          'Alert delivery run failed; the next poll retries',
        );
        return { fannedOut: 0, attempted: 0 };
      })
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        } else
          inBackground(this.scheduleWake(), (error) =>
            this.logger.error(
              { err: error },
              'Scheduling the next alert run failed',
            ),
          );
      });
  }

  /** Fans out recorded alerts and attempts every due delivery, until none is left. */
  async runOnce(): Promise<WorkerRun> {
    let fannedOut = 0;
    let attempted = 0;
    for (;;) {
      const n = await this.repository.fanOut(this.clock.now(), {
        email: this.mailer.enabled,
        limit: FAN_OUT_BATCH,
      });
      fannedOut += n;
      if (n < FAN_OUT_BATCH) break;
    }
    for (;;) {
      const claimed = await this.repository.claimDue(
        this.clock.now(),
        LEASE_MS,
        CLAIM_BATCH,
      );
      if (claimed.length === 0) break;
      await Promise.all(claimed.map((delivery) => this.attempt(delivery)));
      attempted += claimed.length;
      if (this.stopped) break;
    }
    return { fannedOut, attempted };
  }

  /** Wakes up for the earliest retry, when that is before the next poll. */
  private async scheduleWake(): Promise<void> {
    if (this.stopped || this.options.pollSeconds <= 0) return;
    const due = await this.repository.nextDue().catch(() => undefined);
    if (!due) return;
    const wait = due.getTime() - this.clock.now().getTime();
    if (wait >= this.options.pollSeconds * 1000) return;
    clearTimeout(this.wake);
    this.wake = setTimeout(() => this.kick(), Math.max(0, wait) + 5);
    this.wake.unref();
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    let error: string | undefined;
    try {
      error =
        delivery.channel === 'webhook'
          ? await this.sendWebhook(delivery)
          : await this.sendEmail(delivery);
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
    }
    const now = this.clock.now();
    if (error === undefined) {
      await this.repository.settle(delivery, now, { status: 'delivered' });
      return;
    }
    const delays = this.options.retryDelaysSeconds;
    const delay = delays[delivery.attempt - 1];
    if (delay === undefined || error === GONE) {
      await this.repository.settle(delivery, now, { status: 'failed', error });
      this.logger.warn(
        {
          delivery: delivery.eventUuid,
          channel: delivery.channel,
          attempts: delivery.attempt,
          error,
        },
        'Alert delivery failed for good',
      );
      return;
    }
    await this.repository.settle(delivery, now, {
      status: 'pending',
      error,
      retryAt: new Date(now.getTime() + delay * 1000),
    });
  }

  private compose(delivery: ClaimedDelivery) {
    return this.composer.compose(
      delivery.projectId,
      delivery.errorId as string,
      delivery.eventId,
      delivery.trigger,
    );
  }

  /** Undefined when delivered, else why not. */
  private async sendWebhook(
    delivery: ClaimedDelivery,
  ): Promise<string | undefined> {
    if (delivery.hookId === null || delivery.errorId === null) return GONE;
    const hook = await this.repository.findHook(
      delivery.projectId,
      delivery.hookId,
    );
    const content = hook && (await this.compose(delivery));
    if (!hook || !content) return GONE;
    const outcome = await this.dispatcher.send(
      hook,
      webhookBody(content),
      delivery.eventUuid,
      {
        trigger: delivery.trigger,
        attempt: delivery.attempt,
      },
    );
    return outcome.delivered ? undefined : (outcome.error ?? 'failed');
  }

  private async sendEmail(
    delivery: ClaimedDelivery,
  ): Promise<string | undefined> {
    if (delivery.userId === null || delivery.errorId === null) return GONE;
    if (!this.mailer.enabled) return 'E-mail alerts are off (no SMTP_URL)';
    const user = await this.accounts.findUser(delivery.userId);
    if (!user || user.state !== 'active') return GONE;
    // The member may have opted out (or left) since the alert was recorded.
    if (await this.repository.isOptedOut(delivery.projectId, user.id))
      return GONE;
    const content = await this.compose(delivery);
    if (!content) return GONE;
    await this.mailer.send(
      user.email,
      alertEmail(content, this.links.settingsUrl(delivery.projectId)),
      delivery.eventUuid,
    );
    return undefined;
  }
}

/** The receiver or the alert's subject no longer exists: no point retrying. */
const GONE = 'gone: the hook, member or error no longer exists';
