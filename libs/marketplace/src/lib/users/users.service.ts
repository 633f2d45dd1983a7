import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, hashPassword, hashToken } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import {
  requireMaster,
  requireUser,
  requireUserOrMaster,
} from '../auth/access';
import type { Principal } from '../auth/principal';
import { CredentialsRepository } from '../auth/credentials.repository';
import { SessionCache } from '../auth/session-cache';
import { SessionsService, withToken } from '../auth/sessions.service';
import type { StoredUser } from '../auth/stored-user';
import type { KinveyDoc } from '../kinvey/kinvey-doc';
import { isPlainObject } from '../kinvey/kinvey-doc';
import { MarketplaceDatabase } from '../persistence/marketplace-database';
import {
  DEFAULT_SIGNUPS_PER_CLIENT_PER_HOUR,
  MARKETPLACE_OPTIONS,
} from '../common/marketplace.constants';
import { MarketplaceError } from '../common/marketplace.errors';
import type { MarketplaceModuleOptions } from '../common/marketplace.options';
import {
  checkUserBody,
  clientFields,
  userIdOf,
  withImplicitCredentials,
} from './user-fields';
import { kmdAfterUpdate } from './email-verification';
import {
  SignupCountsRepository,
  signupWindow,
} from './signup-counts.repository';
import { UsersRepository } from './users.repository';
import { CollectionsService } from '../app-collections/collections.service';
import { mayRead } from '../records/collection-access';
import { MfaRepository } from '../mfa/mfa.repository';

/** Kinvey's user calls: signup, `_me`, get, update, delete. */
@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly credentials: CredentialsRepository,
    private readonly mfa: MfaRepository,
    private readonly db: MarketplaceDatabase,
    private readonly sessionTokens: SessionsService,
    private readonly sessions: SessionCache,
    private readonly collections: CollectionsService,
    private readonly signups: SignupCountsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MARKETPLACE_OPTIONS)
    private readonly options: MarketplaceModuleOptions,
  ) {}

  /**
   * App credentials are public: signups with them are limited per client
   * address (`client`, which honours X-Forwarded-For only under
   * TRUST_PROXY), counted before the body is checked. The master secret
   * is the operator's and is not limited.
   */
  private async countSignup(
    principal: Principal,
    client: string,
  ): Promise<void> {
    if (principal.kind !== 'app') return;
    const now = this.clock.now();
    const counted = await this.signups.take(
      principal.app.appKey,
      client,
      now,
      this.options.signupsPerClientPerHour ??
        DEFAULT_SIGNUPS_PER_CLIENT_PER_HOUR,
    );
    if (!counted)
      throw MarketplaceError.tooManySignups(signupWindow(now).end, now);
  }

  /**
   * Whether `client` may sign a user up now (app or master credentials;
   * app signups counted per client address): taken before the collection's
   * business logic runs, so a refused signup costs no call to a Flex service.
   */
  async admitSignup(principal: Principal, client: string): Promise<void> {
    if (principal.kind === 'user')
      throw MarketplaceError.insufficient(
        'signup needs app or master credentials',
      );
    await this.countSignup(principal, client);
  }

  /** 201 reply: every submitted field, the password as sent, a session. */
  async signup(
    principal: Principal,
    body: unknown,
    client: string,
  ): Promise<KinveyDoc> {
    await this.admitSignup(principal, client);
    return this.createUser(principal, body);
  }

  /** A signup `admitSignup` let in. */
  async createUser(principal: Principal, body: unknown): Promise<KinveyDoc> {
    const input = withImplicitCredentials(body) as Record<string, unknown>;
    const password = checkUserBody(input, true) as string;
    const now = this.clock.now();
    const id = userIdOf(input['_id'], now, principal.app.appKey);
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
    const token = await this.sessionTokens.issue(principal.app.appKey, id);
    return withToken({ ...doc, password }, token);
  }

  me(principal: Principal): KinveyDoc {
    requireUser(principal);
    return principal.user.doc;
  }

  async get(principal: Principal, id: string): Promise<KinveyDoc> {
    requireUserOrMaster(principal);
    const user = await this.users.findById(principal.app.appKey, id);
    if (!user || user.disabled) throw MarketplaceError.userNotFound(id);
    const level = await this.collections.userLevel(principal.app.appKey);
    if (!mayRead(principal, level, user.doc))
      throw MarketplaceError.insufficient(
        'the user is not readable by this user',
      );
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
    const fields = clientFields(input);
    const doc: KinveyDoc = {
      ...fields,
      _id: id,
      verifieduser:
        principal.kind === 'master' &&
        typeof input['verifieduser'] === 'boolean'
          ? input['verifieduser']
          : (existing.doc['verifieduser'] ?? false),
      _acl: { ...(acl as object), creator: id },
      _kmd: { ...kmdAfterUpdate(kmd, existing.doc, fields), lmt: now },
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
    const token = sessionToken ?? (await this.sessionTokens.issue(appKey, id));
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

  /**
   * "Log out everywhere": revokes every token of the user, the caller's own
   * included (the SDK drops its session after this call).
   */
  async revokeTokens(principal: Principal, id: string): Promise<void> {
    requireUserOrMaster(principal);
    if (principal.kind === 'user' && principal.user.id !== id)
      throw MarketplaceError.insufficient('users revoke only their own tokens');
    const appKey = principal.app.appKey;
    if (principal.kind === 'master') {
      const user = await this.users.findById(appKey, id);
      if (!user || user.disabled) throw MarketplaceError.userNotFound(id);
    }
    await this.credentials.revokeAll(appKey, id);
    this.sessions.forgetUser(appKey, id);
  }

  /** Disables the user (Kinvey's default) or, with `hard`, deletes it. */
  async remove(
    principal: Principal,
    id: string,
    { hard }: { readonly hard: boolean },
  ): Promise<void> {
    requireMaster(principal);
    const appKey = principal.app.appKey;
    const done = await this.db.transaction(async (tx) => {
      if (hard) {
        const removed = await this.users.remove(appKey, id, tx);
        await this.credentials.removeAll(appKey, id, tx);
        await this.mfa.removeAll(appKey, id, tx);
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
