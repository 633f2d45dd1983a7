import { availableParallelism } from 'node:os';

import { Algorithm, hash, verify } from '@node-rs/argon2';

import { ConcurrencyLimit, ConcurrencyLimitFull } from './concurrency-limit';
import { TransportError, TransportErrorKind } from './transport-error';

/**
 * Argon2id at OWASP's recommended minimum (19 MiB of memory, 2 passes, one
 * lane), with a random salt per password. The parameters travel in the PHC
 * string stored with each hash, so they can be raised later without
 * invalidating existing passwords. About 16 ms per hash on one core.
 */
const OPTIONS = {
  algorithm: Algorithm.Argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

const MAX_PASSWORD_BYTES = 1024;

/**
 * Hashes at once in this process: one per core this process may run on,
 * at most libuv's four threads. Each holds 19 MiB while it runs; more at
 * once than the cores can compute adds only memory (four at once on one
 * core raised the gateway's peak by 73 MB against 19 for one, at the same
 * logins per second).
 */
const HASH_SLOTS = Math.min(4, availableParallelism());
/**
 * Hashes that may wait their turn: about 0.8 s of hashing. A flood of
 * signups or logins past it is refused at once (429, retry in a second)
 * instead of making every login wait behind it.
 */
export const MAX_WAITING_HASHES = HASH_SLOTS * 50;
const HASHES = new ConcurrencyLimit(HASH_SLOTS, MAX_WAITING_HASHES);

/** The hash queue is full: a 429 in the context's own error format. */
function busy(error: unknown): never {
  if (error instanceof ConcurrencyLimitFull)
    throw new TransportError(
      TransportErrorKind.TooManyRequests,
      'Too many password checks at once; retry shortly.',
      [],
      1,
    );
  throw error;
}

function tooLong(password: string): boolean {
  return Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES;
}

/** A memory-hard hash: `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`. */
export async function hashPassword(password: string): Promise<string> {
  if (tooLong(password)) throw new RangeError('Password too long');
  return HASHES.run(() => hash(password.normalize('NFC'), OPTIONS)).catch(busy);
}

/** Checks a password against a stored hash (constant-time comparison). */
export async function verifyPassword(
  password: string,
  stored: string,
): Promise<boolean> {
  if (tooLong(password) || !stored.startsWith('$argon2')) return false;
  // A full queue is no verdict on the password: it is refused, not false.
  return HASHES.run(() =>
    verify(stored, password.normalize('NFC')).catch(() => false),
  ).catch(busy);
}

/**
 * A hash to verify against when the user does not exist, so a login for an
 * unknown name costs the same time as one with a wrong password.
 */
export const DUMMY_PASSWORD_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$iLv2USh0VQqKgSOMTxtoxw$KDcKi1kviZCoJ2C2d0l24/QljzDlnVEVRit/MAx4WAI';
