import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
} from 'node:crypto';

const VERSION = 'v1';
const AAD = Buffer.from('quitanda:webhook-token');
const CHECK_LABEL = 'quitanda:alerts-key-check';

/**
 * Webhook secret tokens at rest: AES-256-GCM under a key derived from
 * ALERTS_ENCRYPTION_KEY. Encrypted rather than hashed because the token is
 * sent back to the receiver (`X-Gitlab-Token`), as GitLab stores it.
 */
export class TokenCipher {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHash('sha256').update(secret).digest();
  }

  /**
   * A value that tells keys apart without revealing one (an HMAC of a fixed
   * label), stored so that replicas can compare their keys.
   */
  checkValue(): string {
    return createHmac('sha256', this.key).update(CHECK_LABEL).digest('hex');
  }

  encrypt(token: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(AAD);
    const body = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
    return [
      VERSION,
      iv.toString('base64'),
      cipher.getAuthTag().toString('base64'),
      body.toString('base64'),
    ].join(':');
  }

  /** Throws when the value was not sealed with this key (or was altered). */
  decrypt(sealed: string): string {
    const [version, iv, tag, body] = sealed.split(':');
    if (version !== VERSION || !iv || !tag || body === undefined)
      throw new Error('Unknown token format');
    const decipher = createDecipheriv(
      'aes-256-gcm',
      this.key,
      Buffer.from(iv, 'base64'),
    );
    decipher.setAAD(AAD);
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([
      decipher.update(Buffer.from(body, 'base64')),
      decipher.final(),
    ]).toString('utf8');
  }
}
