import { Injectable } from '@nestjs/common';
import type { OnApplicationBootstrap } from '@nestjs/common';

import { AlertsRepository } from './alerts.repository';
import { WebhookDispatcher } from './webhook-dispatcher';

export class AlertsKeyMismatchError extends Error {
  constructor() {
    super(
      'ALERTS_ENCRYPTION_KEY differs from the key that encrypted the webhook secret tokens stored in this database. ' +
        'Give every gateway of this database the same ALERTS_ENCRYPTION_KEY (a key generated at first boot is in DATA_DIR/secrets.json of the gateway that made it).',
    );
    this.name = 'AlertsKeyMismatchError';
  }
}

/**
 * Keeps every replica on the key that sealed the stored webhook tokens: a
 * gateway whose key differs refuses to start, rather than fail each
 * delivery later. Only a check value of the key is stored, never the key.
 */
@Injectable()
export class AlertsKeyCheck implements OnApplicationBootstrap {
  /** This key's value is the stored one (it never changes once stored). */
  private agreed = false;

  constructor(
    private readonly repository: AlertsRepository,
    private readonly dispatcher: WebhookDispatcher,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const cipher = this.dispatcher.cipher;
    if (!cipher) return;
    const stored = await this.repository.keyCheckValue();
    if (stored !== undefined) {
      if (stored !== cipher.checkValue()) throw new AlertsKeyMismatchError();
      this.agreed = true;
      return;
    }
    // Tokens sealed before check values were stored: the key must open one.
    const sealed = await this.repository.anySealedToken();
    if (sealed === undefined) return;
    try {
      cipher.decrypt(sealed);
    } catch {
      throw new AlertsKeyMismatchError();
    }
    await this.beforeSeal();
  }

  /**
   * Before a token is sealed: stores this key's check value if none is
   * (the first key to seal a token wins) and refuses if another key's is.
   */
  async beforeSeal(): Promise<void> {
    const cipher = this.dispatcher.cipher;
    if (this.agreed || !cipher) return;
    const own = cipher.checkValue();
    if ((await this.repository.recordKeyCheckValue(own)) !== own)
      throw new AlertsKeyMismatchError();
    this.agreed = true;
  }
}
