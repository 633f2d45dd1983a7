import { createHmac } from 'node:crypto';

import { constantTimeEqual } from '@quitanda/kernel';

/**
 * The CSRF token of the forms a browser sees: an HMAC of the secret only
 * that browser holds (its session id, or before sign-in its anonymous
 * cookie), so it is tied to the session and needs no storage.
 */
export function csrfTokenFor(secret: string): string {
  return createHmac('sha256', secret)
    .update('quitanda-csrf')
    .digest('base64url');
}

/** Whether `candidate` is the token of `secret` (constant time). */
export function isValidCsrfToken(
  secret: string | undefined,
  candidate: unknown,
): boolean {
  if (!secret || typeof candidate !== 'string' || candidate.length > 128)
    return false;
  return constantTimeEqual(csrfTokenFor(secret), candidate);
}
