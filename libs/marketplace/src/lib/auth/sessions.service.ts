import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, hashToken, randomToken } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import type { KinveyDoc } from '../kinvey/kinvey-doc';
import { isPlainObject } from '../kinvey/kinvey-doc';
import { MARKETPLACE_OPTIONS } from '../common/marketplace.constants';
import { MarketplaceError } from '../common/marketplace.errors';
import type { MarketplaceModuleOptions } from '../common/marketplace.options';
import { requireUser } from './access';
import { CredentialsRepository } from './credentials.repository';
import { LoginService } from './login.service';
import type { Principal } from './principal';
import { SessionCache } from './session-cache';
import { SecondFactorGate } from './second-factor-gate';

const DAY_MS = 86_400_000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A user reply that the SDKs store as the session: it carries the token. */
export function withToken(doc: KinveyDoc, token: string): KinveyDoc {
  const kmd = isPlainObject(doc['_kmd']) ? doc['_kmd'] : {};
  return { ...doc, _kmd: { ...kmd, authtoken: token } };
}

/** `email` of login replies: the stored one, else an e-mail-like username. */
export function loginEmail(doc: KinveyDoc): string | undefined {
  if (typeof doc['email'] === 'string' && doc['email']) return doc['email'];
  const username = doc['username'];
  return typeof username === 'string' && EMAIL.test(username)
    ? username
    : undefined;
}

/** Sessions of users: issued at signup, login or own update; ended by logout. */
@Injectable()
export class SessionsService {
  constructor(
    private readonly credentials: CredentialsRepository,
    private readonly login: LoginService,
    private readonly sessions: SessionCache,
    private readonly secondFactor: SecondFactorGate,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MARKETPLACE_OPTIONS)
    private readonly options: MarketplaceModuleOptions,
  ) {}

  /** A new session token of the user (only its digest is stored). */
  async issue(appKey: string, userId: string): Promise<string> {
    const token = randomToken(24);
    const now = this.clock.now();
    await this.credentials.insertToken(
      appKey,
      userId,
      hashToken(token),
      new Date(now.getTime() + this.options.tokenLifetimeDays * DAY_MS),
      now,
    );
    return token;
  }

  async logIn(principal: Principal, body: unknown): Promise<KinveyDoc> {
    if (principal.kind === 'user')
      throw MarketplaceError.insufficient(
        'login needs app or master credentials',
      );
    if (!isPlainObject(body)) throw MarketplaceError.notAnObject();
    if (body['_socialIdentity'] !== undefined)
      throw MarketplaceError.needsInfrastructure('Social login');
    const { username, password } = body;
    if (
      typeof username !== 'string' ||
      typeof password !== 'string' ||
      !username
    )
      throw MarketplaceError.incompleteBody(
        'Login needs a username and a password.',
        'username, password',
      );
    const appKey = principal.app.appKey;
    const user = await this.login.verify(
      appKey,
      username.trim(),
      password.trim(),
    );
    const challenge = await this.secondFactor.gate(appKey, user.id, body);
    if (challenge) return challenge;
    return withToken(...(await this.startSession(appKey, user.id)));
  }

  /** A logged-in user's doc (last login stamped) and a new session token. */
  async startSession(
    appKey: string,
    userId: string,
  ): Promise<[doc: KinveyDoc, token: string]> {
    const doc = await this.credentials.setLastLogin(
      appKey,
      userId,
      this.clock.now().toISOString(),
    );
    const token = await this.issue(appKey, userId);
    const email = loginEmail(doc);
    return [email === undefined ? doc : { ...doc, email }, token];
  }

  async logOut(principal: Principal): Promise<void> {
    requireUser(principal);
    if (principal.tokenDigest) {
      await this.credentials.revokeToken(
        principal.app.appKey,
        principal.tokenDigest,
      );
      this.sessions.forgetToken(principal.tokenDigest);
    }
  }
}
