import { randomInt } from 'node:crypto';

import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as authenticator apps default to it (SHA-1, 6 digits, 30 s). */
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** One step either side: a phone clock a little off still works. */
const WINDOW = 1;
/**
 * The key is 32 letters and digits (190 bits, above RFC 4226's 160) rather
 * than raw random bytes: Kinvey's keys are text, and clients built against
 * Kinvey (its own SDK test tools among them) read the decoded key as a
 * UTF-8 string, which mangles any byte above 0x7f and so every code.
 */
const SECRET_CHARACTERS = 32;
const SECRET_ALPHABET =
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function totp(secret: string): TOTP {
  return new TOTP({
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD_SECONDS,
  });
}

/** A new random shared secret, base32 as authenticator apps take it. */
export function newTotpSecret(): string {
  let key = '';
  for (let i = 0; i < SECRET_CHARACTERS; i += 1)
    key += SECRET_ALPHABET[randomInt(SECRET_ALPHABET.length)];
  return Secret.fromLatin1(key).base32;
}

/**
 * The time step a code belongs to, if it is right for `now` within the
 * window; callers refuse a step they already accepted, so each code works
 * once.
 */
export function totpStep(
  secret: string,
  code: string,
  now: Date,
): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const timestamp = now.getTime();
  const delta = totp(secret).validate({
    token: code,
    timestamp,
    window: WINDOW,
  });
  if (delta === null) return undefined;
  return Math.floor(timestamp / 1000 / PERIOD_SECONDS) + delta;
}

/** The code of `now` (tests and operators' tooling). */
export function totpCode(secret: string, now: Date): string {
  return totp(secret).generate({ timestamp: now.getTime() });
}
