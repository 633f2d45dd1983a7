import { Inject, Injectable } from '@nestjs/common';
import { CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { ERROR_TRACKING_OPTIONS } from '../common/error-tracking.constants';
import type { ErrorTrackingModuleOptions } from '../common/error-tracking.options';
import { AlertLinks } from './alert-links';
import type { WebhookBody } from './alert-content';
import { AlertsRepository } from './alerts.repository';
import { TokenCipher } from './token-cipher';
import { sendWebhook } from './webhook-sender';
import type { WebhookOutcome } from './webhook-sender';
import type { TargetPolicy } from './webhook-target';

/**
 * Sends one request to a hook (with its decrypted token and the SSRF
 * policy) and writes it to the hook's delivery log.
 */
@Injectable()
export class WebhookDispatcher {
  readonly cipher: TokenCipher | undefined;
  private readonly allowLocal: boolean;

  constructor(
    private readonly repository: AlertsRepository,
    private readonly links: AlertLinks,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ERROR_TRACKING_OPTIONS) options: ErrorTrackingModuleOptions,
  ) {
    const key = options.alerts?.encryptionKey;
    this.cipher = key ? new TokenCipher(key) : undefined;
    this.allowLocal = options.alerts?.allowLocalTargets ?? false;
  }

  policy(): TargetPolicy {
    return { allowLocal: this.allowLocal, ownHost: this.links.ownHost() };
  }

  async send(
    hook: {
      id: number;
      url: string;
      tokenCiphertext: string | null;
      enableSslVerification: boolean;
    },
    body: WebhookBody,
    eventUuid: string,
    log: { trigger: string; attempt: number },
  ): Promise<WebhookOutcome> {
    const createdAt = this.clock.now();
    let outcome: WebhookOutcome;
    let token: string | undefined;
    try {
      token = this.token(hook.tokenCiphertext);
    } catch {
      token = undefined;
    }
    if (hook.tokenCiphertext !== null && token === undefined)
      outcome = {
        delivered: false,
        status: null,
        durationSeconds: 0,
        error:
          'the secret token cannot be decrypted (ALERTS_ENCRYPTION_KEY missing or changed)',
      };
    else
      outcome = await sendWebhook(
        {
          url: hook.url,
          body: JSON.stringify(body),
          eventUuid,
          token,
          verifyTls: hook.enableSslVerification,
          instance: this.links.base(),
        },
        this.policy(),
      );
    await this.repository.logAttempt({
      hookId: hook.id,
      eventUuid,
      trigger: log.trigger,
      attempt: log.attempt,
      responseStatus: outcome.status,
      executionDuration: outcome.durationSeconds,
      error: outcome.error ?? null,
      createdAt,
    });
    return outcome;
  }

  private token(sealed: string | null): string | undefined {
    if (sealed === null) return undefined;
    if (!this.cipher) throw new Error('no key');
    return this.cipher.decrypt(sealed);
  }
}
