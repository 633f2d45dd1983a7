import { createHmac } from 'node:crypto';

import { constantTimeEqual } from '@quitanda/kernel';

export type UrlPurpose = 'upload' | 'download';

/** Expiry of a URL that never expires (public files' download URLs). */
export const NEVER = 0;

/**
 * HMAC-SHA256 of what a self-authorising URL grants: which app, file,
 * generation of the file (a replacement invalidates old URLs), purpose,
 * and until when (epoch seconds, 0 = never).
 */
export function signature(
  key: string,
  purpose: UrlPurpose,
  appKey: string,
  fileId: string,
  generation: number,
  expires: number,
): string {
  return createHmac('sha256', key)
    .update(`${purpose}\n${appKey}\n${fileId}\n${generation}\n${expires}`)
    .digest('base64url');
}

export function verifySignature(
  key: string,
  purpose: UrlPurpose,
  appKey: string,
  fileId: string,
  generation: number,
  expires: number,
  candidate: string,
  nowSeconds: number,
): boolean {
  const expected = signature(key, purpose, appKey, fileId, generation, expires);
  const valid = constantTimeEqual(expected, candidate);
  return valid && (expires === NEVER || expires > nowSeconds);
}
