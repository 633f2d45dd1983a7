import type { KinveyDoc } from '../kinvey/kinvey-doc';

/** RFC 5322 `atext`: what a dot-atom local part is made of. */
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
/** An RFC 5321 domain label (letters, digits, inner hyphens). */
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
/**
 * One RFC 5321/5322 mailbox, `local@domain`, in its plain form: a
 * dot-atom local part and a domain name. No list, display name, comment,
 * quoted local part, address literal, space or line break: anything a mail
 * system could read as more than one recipient, or as a header.
 */
const MAILBOX = new RegExp(
  `^${ATEXT}(?:\\.${ATEXT})*@${LABEL}(?:\\.${LABEL})*$`,
);
/** RFC 5321's limits: 64 octets of local part, 254 of path. */
const MAX_LOCAL = 64;
const MAX_MAILBOX = 254;

export function isMailbox(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length <= MAX_MAILBOX &&
    value.indexOf('@') <= MAX_LOCAL &&
    MAILBOX.test(value)
  );
}

/**
 * Where a user's account mail goes: its `email`, else an e-mail-like
 * username; none when the stored `email` is not one mailbox (written
 * before it was checked), rather than a guess.
 */
export function mailboxOf(doc: KinveyDoc): string | undefined {
  const email = doc['email'];
  if (typeof email === 'string' && email)
    return isMailbox(email) ? email : undefined;
  return isMailbox(doc['username']) ? doc['username'] : undefined;
}
