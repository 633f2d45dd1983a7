import { SecretSealer } from '@quitanda/kernel';

const PURPOSE = 'quitanda:webhook-token';
const CHECK_LABEL = 'quitanda:alerts-key-check';

/**
 * Webhook secret tokens at rest, sealed under ALERTS_ENCRYPTION_KEY.
 * Encrypted rather than hashed because the token is sent back to the
 * receiver (`X-Gitlab-Token`), as GitLab stores it.
 */
export class TokenCipher {
  private readonly sealer: SecretSealer;

  constructor(secret: string) {
    this.sealer = new SecretSealer(secret, PURPOSE);
  }

  checkValue(): string {
    return this.sealer.checkValue(CHECK_LABEL);
  }

  encrypt(token: string): string {
    return this.sealer.seal(token);
  }

  /** Throws when the value was not sealed with this key (or was altered). */
  decrypt(sealed: string): string {
    return this.sealer.open(sealed);
  }
}
