import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
} from 'node:crypto';

const VERSION = 'v1';

/**
 * Secrets that must be read back (so cannot be hashed) at rest:
 * AES-256-GCM under a key derived from a configured secret. `purpose` is
 * bound in as associated data, so a value sealed for one use is refused by
 * another even under the same key.
 */
export class SecretSealer {
  private readonly key: Buffer;
  private readonly aad: Buffer;

  constructor(secret: string, purpose: string) {
    this.key = createHash('sha256').update(secret).digest();
    this.aad = Buffer.from(purpose);
  }

  /**
   * A value that tells keys apart without revealing one (an HMAC of
   * `label`), stored so that replicas can compare their keys.
   */
  checkValue(label: string): string {
    return createHmac('sha256', this.key).update(label).digest('hex');
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(this.aad);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [
      VERSION,
      iv.toString('base64'),
      cipher.getAuthTag().toString('base64'),
      body.toString('base64'),
    ].join(':');
  }

  /** Throws when the value was not sealed with this key (or was altered). */
  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split(':');
    if (version !== VERSION || !iv || !tag || body === undefined)
      throw new Error('Unknown sealed format');
    const decipher = createDecipheriv(
      'aes-256-gcm',
      this.key,
      Buffer.from(iv, 'base64'),
    );
    decipher.setAAD(this.aad);
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([
      decipher.update(Buffer.from(body, 'base64')),
      decipher.final(),
    ]).toString('utf8');
  }
}
