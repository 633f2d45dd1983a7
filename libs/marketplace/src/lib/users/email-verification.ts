import type { KinveyDoc } from '../kinvey/kinvey-doc';
import { mailboxOf } from './mailbox';

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
