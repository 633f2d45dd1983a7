import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * SHA-256 of a high-entropy token, hex encoded. Tokens are random (>= 128
 * bits), so a fast hash is enough to store them: there is nothing to brute
 * force. Passwords use a memory-hard hash in their context instead.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Compares two strings without leaking where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = createHash('sha256').update(a, 'utf8').digest();
  const right = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(left, right);
}

/** URL-safe random text carrying `bytes` bytes of entropy. */
export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}

/** Holds only the hash of a configured secret and checks candidates against it. */
export class SecretMatcher {
  private readonly digest: Buffer;

  constructor(secret: string) {
    this.digest = createHash('sha256').update(secret, 'utf8').digest();
  }

  matches(candidate: string): boolean {
    const other = createHash('sha256').update(candidate, 'utf8').digest();
    return timingSafeEqual(this.digest, other);
  }
}
