import { randomUUID } from 'node:crypto';

import { randomToken } from '@quitanda/kernel';

import {
  MAX_PASSWORD,
  MAX_USERNAME,
  MIN_PASSWORD,
} from '../auth/credential-limits';
import { isReservedUserId } from '../auth/principal';
import { isMailbox } from './mailbox';
import { entityIdOf } from '../kinvey/ids';
import { isPlainObject } from '../kinvey/kinvey-doc';
import type { KinveyDoc } from '../kinvey/kinvey-doc';
import {
  MarketplaceError,
  MarketplaceErrorCode,
} from '../common/marketplace.errors';

const DIGITS = /^\d*$/;

function fail(code: MarketplaceErrorCode, problems: string[]): never {
  const debug = problems.join('; ');
  throw code === MarketplaceErrorCode.IncompleteRequestBody
    ? MarketplaceError.incompleteBody(
        'The request body is missing a required field.',
        debug,
      )
    : MarketplaceError.badRequest(
        'The request body has invalid values.',
        debug,
      );
}

/**
 * Checks a user body (signup: `creating`, else an update). Returns the
 * password when one was sent. `phone1`, `phone2` and `cep` hold digits only;
 * `email`, when given, is one mailbox (account mail goes to it).
 */
export function checkUserBody(
  body: unknown,
  creating: boolean,
): string | undefined {
  if (!isPlainObject(body))
    fail(MarketplaceErrorCode.BadRequest, ['the body must be a JSON object']);
  const missing: string[] = [];
  const bad: string[] = [];
  const { username, password } = body;
  if (username === undefined || username === null || username === '')
    missing.push('username is required');
  else if (typeof username !== 'string' || username.length > MAX_USERNAME)
    bad.push(`username must be a string of at most ${MAX_USERNAME} characters`);
  if (password === undefined || password === null) {
    if (creating) missing.push('password is required');
  } else if (
    typeof password !== 'string' ||
    password.length < MIN_PASSWORD ||
    password.length > MAX_PASSWORD
  )
    bad.push(`password must be ${MIN_PASSWORD} to ${MAX_PASSWORD} characters`);
  const { email } = body;
  if (
    email !== undefined &&
    email !== null &&
    email !== '' &&
    !isMailbox(email)
  )
    bad.push(
      'email must be one address (local@domain): no list, display name or spaces',
    );
  for (const field of ['phone1', 'phone2', 'cep']) {
    const value = body[field];
    if (
      value !== undefined &&
      value !== null &&
      (typeof value !== 'string' || !DIGITS.test(value))
    )
      bad.push(`${field} must contain digits only`);
  }
  if (missing.length > 0)
    fail(MarketplaceErrorCode.IncompleteRequestBody, [...missing, ...bad]);
  if (bad.length > 0) fail(MarketplaceErrorCode.BadRequest, bad);
  return typeof password === 'string' ? password : undefined;
}

const blank = (value: unknown): boolean =>
  value === undefined || value === null || value === '';

/**
 * Kinvey's signup without credentials: no username and no password (or no
 * body at all) is an implicit user with both generated; a username with a
 * blank password gets a generated password. Either way the reply shows
 * what was generated, once, as Kinvey's does (SDK test suites sign most of
 * their users up so and log in with the reply's password).
 */
export function withImplicitCredentials(body: unknown): unknown {
  const input = body === undefined || body === null ? {} : body;
  if (!isPlainObject(input) || !blank(input['password'])) return input;
  const username = blank(input['username']) ? randomUUID() : input['username'];
  return { ...input, username, password: randomToken(18) };
}

/** The `_id` of a new user: the client's valid, unreserved one, or a new one. */
export function userIdOf(value: unknown, now: Date, appKey: string): string {
  const id = entityIdOf(value, now);
  if (isReservedUserId(id, appKey)) throw MarketplaceError.reservedUserId();
  return id;
}

/** The client fields of a user body: everything but server-kept ones. */
export function clientFields(body: Record<string, unknown>): KinveyDoc {
  const {
    password: _p,
    _kmd: _k,
    _acl: _a,
    _id: _i,
    verifieduser: _v,
    ...rest
  } = body;
  return rest;
}
