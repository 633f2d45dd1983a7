import { Injectable } from '@nestjs/common';
import { hashToken } from '@quitanda/kernel';
import { Inject } from '@nestjs/common';
import { CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { AppsService, secretKind } from '../apps/apps.service';
import { LoginService } from './login.service';
import { CredentialsRepository } from './credentials.repository';
import type { StoredUser } from './stored-user';
import { parseAuthorization } from './authorization-header';
import type { Principal } from './principal';
import { SessionCache } from './session-cache';
import { FlexCallbackCredentials } from './flex-callback-credentials';
import type { AppRecord } from '../apps/app.types';
import { MarketplaceError } from '../common/marketplace.errors';

/** Turns a path's app key and an `Authorization` header into a principal. */
@Injectable()
export class AuthService {
  constructor(
    private readonly apps: AppsService,
    private readonly users: CredentialsRepository,
    private readonly login: LoginService,
    private readonly sessions: SessionCache,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly flexCallbacks: FlexCallbackCredentials,
  ) {}

  /**
   * The app's master or app secret, else one a Flex service of the app was
   * handed in their place (the principal then says which service).
   */
  private async secretPrincipal(
    app: AppRecord,
    secret: string,
  ): Promise<Principal> {
    const kind = secretKind(app, secret);
    if (kind) return { kind, app };
    const callback = await this.flexCallbacks.callbackKind(app.appKey, secret);
    if (!callback) throw MarketplaceError.invalidCredentials();
    return { kind: callback.kind, app, flexService: callback.service };
  }

  private async sessionUser(
    appKey: string,
    digest: string,
  ): Promise<StoredUser | undefined> {
    const now = this.clock.now();
    const cached = this.sessions.get(appKey, digest, now);
    if (cached) return cached;
    const session = await this.users.findSession(appKey, digest, now);
    if (!session) return undefined;
    this.sessions.set(appKey, digest, session.user, session.expiresAt, now);
    return session.user;
  }

  async authenticate(
    appKey: string,
    header: string | undefined,
  ): Promise<Principal> {
    const app = await this.apps.get(appKey);
    const credentials = parseAuthorization(header);
    if (!credentials)
      throw MarketplaceError.invalidCredentials(
        'missing or unreadable Authorization header',
      );
    switch (credentials.scheme) {
      case 'kinvey': {
        const digest = hashToken(credentials.token);
        const user = await this.sessionUser(appKey, digest);
        if (!user)
          throw MarketplaceError.invalidCredentials(
            'unknown, expired or revoked token',
          );
        return { kind: 'user', app, user, tokenDigest: digest };
      }
      case 'bare':
        return this.secretPrincipal(app, credentials.secret);
      case 'basic': {
        if (credentials.name === appKey)
          return this.secretPrincipal(app, credentials.secret);
        const user = await this.login.verify(
          appKey,
          credentials.name,
          credentials.secret,
        );
        return { kind: 'user', app, user };
      }
    }
  }
}
