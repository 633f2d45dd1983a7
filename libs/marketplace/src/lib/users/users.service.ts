import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, hashPassword, hashToken, randomToken } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import {
  requireMaster,
  requireUser,
  requireUserOrMaster,
} from '../auth/access';
import type { Principal } from '../auth/principal';
import { CredentialsRepository } from '../auth/credentials.repository';
import { SessionCache } from '../auth/session-cache';
import type { StoredUser } from '../auth/stored-user';
import { entityIdOf } from '../kinvey/ids';
import type { KinveyDoc } from '../kinvey/kinvey-doc';
import { isPlainObject } from '../kinvey/kinvey-doc';
import { MARKETPLACE_OPTIONS } from '../marketplace.constants';
import { MarketplaceDatabase } from '../persistence/marketplace-database';
import { MarketplaceError } from '../marketplace.errors';
import type { MarketplaceModuleOptions } from '../marketplace.options';
import { LoginService } from '../auth/login.service';
import { checkUserBody, clientFields, loginEmail } from './user-fields';
import { UsersRepository } from './users.repository';

const DAY_MS = 86_400_000;

function withToken(doc: KinveyDoc, token: string): KinveyDoc {
  const kmd = isPlainObject(doc['_kmd']) ? doc['_kmd'] : {};
  return { ...doc, _kmd: { ...kmd, authtoken: token } };
}

/** Kinvey's user calls: signup, login, logout, `_me`, get, update, delete. */
@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly credentials: CredentialsRepository,
    private readonly db: MarketplaceDatabase,
    private readonly login: LoginService,
    private readonly sessions: SessionCache,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MARKETPLACE_OPTIONS)
    private readonly options: MarketplaceModuleOptions,
  ) {}

  private async issueToken(appKey: string, userId: string): Promise<string> {
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

  /** 201 reply: every submitted field, the password as sent, a session. */
  async signup(principal: Principal, body: unknown): Promise<KinveyDoc> {
    if (principal.kind === 'user')
      throw MarketplaceError.insufficient(
        'signup needs app or master credentials',
      );
    const password = checkUserBody(body, true) as string;
    const input = body as Record<string, unknown>;
    const now = this.clock.now();
    const id = entityIdOf(input['_id'], now);
    const iso = now.toISOString();
    const doc: KinveyDoc = {
      ...clientFields(input),
      _id: id,
      verifieduser:
        principal.kind === 'master' &&
        typeof input['verifieduser'] === 'boolean'
          ? input['verifieduser']
          : false,
      _acl: { creator: id },
      _kmd: { ect: iso, lmt: iso },
    };
    const passwordHash = await hashPassword(password);
    await this.users.insert(
      principal.app.appKey,
      { id, username: doc['username'] as string, doc, passwordHash },
      now,
    );
    const token = await this.issueToken(principal.app.appKey, id);
    return withToken({ ...doc, password }, token);
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
    const doc = await this.users.setLastLogin(
      appKey,
      user.id,
      this.clock.now().toISOString(),
    );
    const token = await this.issueToken(appKey, user.id);
    const email = loginEmail(doc);
    return withToken(email === undefined ? doc : { ...doc, email }, token);
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

  me(principal: Principal): KinveyDoc {
    requireUser(principal);
    return principal.user.doc;
  }

  async get(principal: Principal, id: string): Promise<KinveyDoc> {
    requireUserOrMaster(principal);
    const user = await this.users.findById(principal.app.appKey, id);
    if (!user || user.disabled) throw MarketplaceError.userNotFound(id);
    return user.doc;
  }

  async update(
    principal: Principal,
    id: string,
    body: unknown,
    sessionToken: string | undefined,
  ): Promise<KinveyDoc> {
    requireUserOrMaster(principal);
    const self = principal.kind === 'user' && principal.user.id === id;
    if (principal.kind === 'user' && !self)
      throw MarketplaceError.insufficient('users update only themselves');
    const appKey = principal.app.appKey;
    const existing: StoredUser | undefined =
      self && principal.kind === 'user'
        ? principal.user
        : await this.users.findById(appKey, id);
    if (!existing || existing.disabled) throw MarketplaceError.userNotFound(id);
    const password = checkUserBody(body, false);
    const input = body as Record<string, unknown>;
    if (input['_id'] !== undefined && input['_id'] !== id)
      throw MarketplaceError.idMismatch();
    const now = this.clock.now().toISOString();
    const kmd = isPlainObject(existing.doc['_kmd']) ? existing.doc['_kmd'] : {};
    const acl = isPlainObject(input['_acl'])
      ? input['_acl']
      : existing.doc['_acl'];
    const doc: KinveyDoc = {
      ...clientFields(input),
      _id: id,
      verifieduser:
        principal.kind === 'master' &&
        typeof input['verifieduser'] === 'boolean'
          ? input['verifieduser']
          : (existing.doc['verifieduser'] ?? false),
      _acl: { ...(acl as object), creator: id },
      _kmd: { ...kmd, lmt: now },
    };
    const passwordHash =
      password === undefined ? undefined : await hashPassword(password);
    await this.users.update(
      appKey,
      id,
      doc['username'] as string,
      doc,
      passwordHash,
      this.clock.now(),
    );
    // Sessions read before this hold the old profile (`_me`) or password.
    this.sessions.forgetUser(appKey, id);
    if (passwordHash !== undefined)
      await this.credentials.revokeAll(
        appKey,
        id,
        self && sessionToken ? hashToken(sessionToken) : '',
      );
    if (!self) return doc;
    // The SDKs store this reply as the session: it must carry a token.
    const token = sessionToken ?? (await this.issueToken(appKey, id));
    return withToken(doc, token);
  }

  async usernameExists(principal: Principal, body: unknown): Promise<boolean> {
    if (principal.kind === 'user')
      throw MarketplaceError.insufficient('needs app or master credentials');
    const username = isPlainObject(body) ? body['username'] : undefined;
    if (typeof username !== 'string' || !username)
      throw MarketplaceError.incompleteBody(
        'username is required.',
        'username',
      );
    return this.users.usernameExists(principal.app.appKey, username);
  }

  async remove(principal: Principal, id: string, hard: boolean): Promise<void> {
    requireMaster(principal);
    const appKey = principal.app.appKey;
    const done = await this.db.transaction(async (tx) => {
      if (hard) {
        const removed = await this.users.remove(appKey, id, tx);
        await this.credentials.removeAll(appKey, id, tx);
        return removed;
      }
      const disabled = await this.users.disable(appKey, id, tx);
      await this.credentials.revokeAll(appKey, id, '', tx);
      return disabled;
    });
    this.sessions.forgetUser(appKey, id);
    if (!done) throw MarketplaceError.userNotFound(id);
  }
}
