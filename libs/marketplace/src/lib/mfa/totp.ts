import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as authenticator apps default to it (SHA-1, 6 digits, 30 s). */
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** One step either side: a phone clock a little off still works. */
const WINDOW = 1;
const SECRET_BYTES = 20;

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
  return new Secret({ size: SECRET_BYTES }).base32;
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
