import { isPlainObject } from '../kinvey/kinvey-doc';
import type { KinveyDoc } from '../kinvey/kinvey-doc';

/**
 * Kinvey's `_kmd.emailVerification` of a user: where verification of
 * which address stands. SDKs call a user verified when `status` is
 * `confirmed` (`isEmailVerified`), and Kinvey's SDK suites expect the
 * object once verification was asked for.
 */
export interface EmailVerification {
  readonly status: 'sent' | 'confirmed';
  readonly lastStateChangeAt: string;
  /** When an address of the user was last confirmed, kept across new mails. */
  readonly lastConfirmedAt?: string;
  readonly emailAddress: string;
}

/** The verification mail went to `address`: a confirmation earlier is kept in `lastConfirmedAt`. */
export function verificationSent(
  user: KinveyDoc,
  address: string,
  now: Date,
): EmailVerification {
  const kmd = isPlainObject(user['_kmd']) ? user['_kmd'] : {};
  const previous = isPlainObject(kmd['emailVerification'])
    ? kmd['emailVerification']
    : {};
  const confirmed = previous['lastConfirmedAt'];
  return {
    status: 'sent',
    lastStateChangeAt: now.toISOString(),
    ...(typeof confirmed === 'string' ? { lastConfirmedAt: confirmed } : {}),
    emailAddress: address,
  };
}

/** The link mailed to `address` was followed. */
export function verificationConfirmed(
  address: string,
  now: Date,
): EmailVerification {
  const iso = now.toISOString();
  return {
    status: 'confirmed',
    lastStateChangeAt: iso,
    lastConfirmedAt: iso,
    emailAddress: address,
  };
}
