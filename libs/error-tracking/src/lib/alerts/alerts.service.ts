import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { ErrorTrackingError } from '../common/error-tracking.errors';
import type { ProjectAccess } from '../projects/project.types';
import { AlertComposer, webhookBody } from './alert-content';
import { AlertMailer } from './alert-mailer';
import type {
  AlertRules,
  WebhookAttemptRecord,
  WebhookRecord,
} from '../alerting/alert.types';
import { AlertsKeyCheck, AlertsKeyMismatchError } from './alerts-key-check';
import { AlertsRepository } from './alerts.repository';
import type { HookChanges } from './alerts.repository';
import { WebhookDispatcher } from './webhook-dispatcher';
import type { WebhookOutcome } from './webhook-sender';
import { targetProblem } from './webhook-target';

export const MAX_FREQUENT_THRESHOLD = 1_000_000;
export const MAX_FREQUENT_WINDOW_MINUTES = 10_080;
export const DEFAULT_FREQUENT_WINDOW_MINUTES = 60;
const MAX_URL_LENGTH = 2_048;
const MAX_TOKEN_LENGTH = 255;

export interface HookInput {
  readonly url?: string;
  /** Undefined: unchanged; empty string: removed. */
  readonly token?: string;
  readonly errorTrackingEvents?: boolean;
  readonly enableSslVerification?: boolean;
}

/**
 * Alert settings of a project: webhooks (GitLab's project hooks), their
 * delivery log and test, the `frequent` rule, members' e-mail opt-outs.
 * Callers have checked the access level.
 */
@Injectable()
export class AlertsService {
  constructor(
    private readonly repository: AlertsRepository,
    private readonly dispatcher: WebhookDispatcher,
    private readonly keyCheck: AlertsKeyCheck,
    private readonly composer: AlertComposer,
    private readonly mailer: AlertMailer,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  get emailEnabled(): boolean {
    return this.mailer.enabled;
  }

  async rules(access: ProjectAccess): Promise<AlertRules> {
    const rules = await this.repository.rules(access.project.id);
    if (!rules) throw ErrorTrackingError.projectNotFound();
    return rules;
  }

  async setRules(
    access: ProjectAccess,
    rules: AlertRules,
  ): Promise<AlertRules> {
    await this.repository.setRules(access.project.id, rules);
    return rules;
  }

  listHooks(access: ProjectAccess): Promise<WebhookRecord[]> {
    return this.repository.listHooks(access.project.id);
  }

  async findHook(
    access: ProjectAccess,
    hookId: number,
  ): Promise<WebhookRecord> {
    const hook = await this.repository.findHook(access.project.id, hookId);
    if (!hook) throw ErrorTrackingError.notFound('Hook');
    return hook;
  }

  async createHook(
    access: ProjectAccess,
    input: HookInput,
  ): Promise<WebhookRecord> {
    const url = input.url ?? '';
    this.validate({ ...input, url });
    return this.repository.createHook(
      access.project.id,
      {
        url,
        tokenCiphertext: await this.seal(input.token),
        errorTrackingEvents: input.errorTrackingEvents ?? true,
        enableSslVerification: input.enableSslVerification ?? true,
      },
      this.clock.now(),
    );
  }

  async updateHook(
    access: ProjectAccess,
    hookId: number,
    input: HookInput,
  ): Promise<WebhookRecord> {
    this.validate(input);
    const changes: HookChanges = {
      url: input.url,
      tokenCiphertext:
        input.token === undefined ? undefined : await this.seal(input.token),
      errorTrackingEvents: input.errorTrackingEvents,
      enableSslVerification: input.enableSslVerification,
    };
    const hook = await this.repository.updateHook(
      access.project.id,
      hookId,
      changes,
    );
    if (!hook) throw ErrorTrackingError.notFound('Hook');
    return hook;
  }

  async deleteHook(
    access: ProjectAccess,
    hookId: number,
  ): Promise<WebhookRecord> {
    const hook = await this.repository.deleteHook(access.project.id, hookId);
    if (!hook) throw ErrorTrackingError.notFound('Hook');
    return hook;
  }

  async attempts(
    access: ProjectAccess,
    hookId: number,
    limit: number,
    offset = 0,
  ): Promise<{ attempts: WebhookAttemptRecord[]; total: number }> {
    await this.findHook(access, hookId);
    return this.repository.listAttempts(hookId, limit, offset);
  }

  /** Sends a sample alert now (once, no retries); it goes to the delivery log. */
  async test(access: ProjectAccess, hookId: number): Promise<WebhookOutcome> {
    const hook = await this.repository.findHook(access.project.id, hookId);
    if (!hook) throw ErrorTrackingError.notFound('Hook');
    const content = this.composer.sample(access.project, this.clock.now());
    return this.dispatcher.send(hook, webhookBody(content), randomUUID(), {
      trigger: 'test',
      attempt: 1,
    });
  }

  isOptedOut(access: ProjectAccess, userId: number): Promise<boolean> {
    return this.repository.isOptedOut(access.project.id, userId);
  }

  setOptOut(
    access: ProjectAccess,
    userId: number,
    optedOut: boolean,
  ): Promise<void> {
    return this.repository.setOptOut(
      access.project.id,
      userId,
      optedOut,
      this.clock.now(),
    );
  }

  private validate(input: HookInput): void {
    const fields: Record<string, string[]> = {};
    if (input.url !== undefined) {
      const problem =
        input.url.length > MAX_URL_LENGTH
          ? `is too long (maximum is ${MAX_URL_LENGTH} characters)`
          : targetProblem(input.url, this.dispatcher.policy());
      if (problem) fields['url'] = [problem];
    }
    if (input.token) {
      if (input.token.length > MAX_TOKEN_LENGTH)
        fields['token'] = [
          `is too long (maximum is ${MAX_TOKEN_LENGTH} characters)`,
        ];
      else if (!this.dispatcher.cipher)
        fields['token'] = [
          'cannot be stored: ALERTS_ENCRYPTION_KEY is not set',
        ];
    }
    if (Object.keys(fields).length > 0)
      throw ErrorTrackingError.validation(fields);
  }

  /** The token encrypted; null for none. */
  private async seal(token: string | undefined): Promise<string | null> {
    if (!token) return null;
    try {
      await this.keyCheck.beforeSeal();
    } catch (error) {
      if (!(error instanceof AlertsKeyMismatchError)) throw error;
      throw ErrorTrackingError.validation({
        token: [
          "cannot be stored: this gateway's ALERTS_ENCRYPTION_KEY differs from the one the stored tokens use",
        ],
      });
    }
    return (
      this.dispatcher.cipher as NonNullable<WebhookDispatcher['cipher']>
    ).encrypt(token);
  }
}
