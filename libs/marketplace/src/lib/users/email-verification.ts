import { isPlainObject } from '../kinvey/kinvey-doc';
import type { KinveyDoc } from '../kinvey/kinvey-doc';
import { mailboxOf } from './mailbox';

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

/** An address as mail systems deliver it (any case). */
function mailbox(address: string | undefined): string | undefined {
  return address?.trim().toLowerCase();
}

/** Whether `address` is still the one account mail of this user goes to. */
export function isCurrentAddress(doc: KinveyDoc, address: string): boolean {
  return mailbox(mailboxOf(doc)) === mailbox(address);
}

/**
 * `_kmd` of a user after an update from `before` to `after`: a confirmation
 * holds only for the address it confirmed, so a new address (its `email`,
 * or an e-mail-like username standing for it) is unconfirmed again.
 */
export function kmdAfterUpdate(
  kmd: Readonly<Record<string, unknown>>,
  before: KinveyDoc,
  after: KinveyDoc,
): Record<string, unknown> {
  if (mailbox(mailboxOf(before)) === mailbox(mailboxOf(after)))
    return { ...kmd };
  const { emailVerification: _dropped, ...rest } = kmd;
  return rest;
}
