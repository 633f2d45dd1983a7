import type { AccountTokenKind } from './account-tokens.repository';

export interface MailContent {
  readonly subject: string;
  readonly text: string;
}

/**
 * Characters that end or reorder a line of plain text without looking like
 * it: C1 controls, soft hyphen, zero-width and bidirectional marks, line
 * and paragraph separators, the byte-order mark. JSON escapes the rest.
 */
const INVISIBLE =
  /[\u0080-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g;

/**
 * A user-chosen text as a quoted field: between double quotes, with quotes,
 * backslashes, line breaks and invisible characters escaped, so it reads
 * as one value and never as the mail's own words.
 */
export function quoted(text: string): string {
  return JSON.stringify(text).replace(
    INVISIBLE,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The mail carrying a single-use link. */
export function linkMail(kind: AccountTokenKind, link: string): MailContent {
  return kind === 'password-reset'
    ? {
        subject: 'Reset your password',
        text: `Someone asked to reset the password of your account. To choose a new one, open this link within an hour:\n\n${link}\n\nIf it was not you, ignore this message.`,
      }
    : {
        subject: 'Confirm your e-mail address',
        text: `To confirm this address for your account, open this link within an hour:\n\n${link}\n`,
      };
}

/** The usernames of an address, each a quoted field (users chose them). */
export function usernamesMail(usernames: readonly string[]): MailContent {
  return {
    subject: 'Your username',
    text: `The usernames registered with this address, each between double quotes:\n\n${usernames.map(quoted).join('\n')}\n`,
  };
}
