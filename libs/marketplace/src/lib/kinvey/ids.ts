import { randomBytes } from 'node:crypto';

import { MarketplaceError } from '../marketplace.errors';

const CLIENT_ID = /^[A-Za-z0-9_-]{1,255}$/;

/** 24 lowercase hex characters, ObjectId-like (seconds, then randomness). */
function newEntityId(now: Date): string {
  const seconds = Math.floor(now.getTime() / 1000)
    .toString(16)
    .padStart(8, '0');
  return seconds + randomBytes(8).toString('hex');
}

/** The client's `_id` when it sent a valid one, else a new id. */
export function entityIdOf(value: unknown, now: Date): string {
  if (value === undefined || value === null) return newEntityId(now);
  if (typeof value !== 'string' || !CLIENT_ID.test(value))
    throw MarketplaceError.badRequest(
      'The _id must be 1 to 255 characters of letters, digits, _ and -.',
      '_id',
    );
  return value;
}

export function isEntityId(value: string): boolean {
  return CLIENT_ID.test(value);
}
