import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, hashToken } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { AppsService } from '../apps/apps.service';
import { SessionsService } from '../auth/sessions.service';
import { MarketplaceError } from '../common/marketplace.errors';
import type { KinveyDoc } from '../kinvey/kinvey-doc';
import { isPlainObject } from '../kinvey/kinvey-doc';
import { MfaRepository } from './mfa.repository';
import { SecondFactorService } from './second-factor.service';

const MFA_SCHEME = /^KinveyMFA\s+(\S+)$/i;

/**
 * The second half of a login that needs a second factor: the SDK names an
 * authenticator (`/mfa/challenge`), then sends its code (`/mfa/complete`),
 * both under `Authorization: KinveyMFA <mfaSessionToken>` from the login's
 * challenge. A completed session is ended, so its token logs in once.
 */
@Injectable()
export class MfaLoginService {
  constructor(
    private readonly apps: AppsService,
    private readonly mfa: MfaRepository,
    private readonly factors: SecondFactorService,
    private readonly sessions: SessionsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async challenge(
    appKey: string,
    authorization: string | undefined,
    body: unknown,
  ): Promise<Record<string, never>> {
    const { userId, digest } = await this.session(appKey, authorization);
    if (!isPlainObject(body)) throw MarketplaceError.notAnObject();
    const id = body['authenticatorId'];
    if (typeof id !== 'string')
      throw MarketplaceError.incompleteBody(
        'The challenge needs an authenticatorId.',
        'authenticatorId',
      );
    const authenticator = await this.mfa.findAuthenticator(appKey, userId, id);
    if (!authenticator?.verified)
      throw MarketplaceError.authenticatorNotFound(id);
    await this.mfa.chooseAuthenticator(appKey, digest, id);
    // A TOTP app makes its own codes: nothing is sent to the user.
    return {};
  }

  async complete(
    appKey: string,
    authorization: string | undefined,
    body: unknown,
  ): Promise<KinveyDoc> {
    const { userId, digest, authenticatorId } = await this.session(
      appKey,
      authorization,
    );
    if (!isPlainObject(body)) throw MarketplaceError.notAnObject();
    if (!authenticatorId)
      throw MarketplaceError.badRequest(
        'Choose an authenticator (mfa/challenge) first.',
        'authenticatorId',
      );
    await this.factors.checkCode(appKey, userId, authenticatorId, body['code']);
    await this.mfa.endSession(appKey, digest);
    const [user, authToken] = await this.sessions.startSession(appKey, userId);
    const reply: KinveyDoc = { user, authToken };
    if (body['createDeviceToken'] === true)
      reply['deviceToken'] = await this.factors.rememberDevice(appKey, userId);
    return reply;
  }

  private async session(
    appKey: string,
    authorization: string | undefined,
  ): Promise<{
    userId: string;
    digest: string;
    authenticatorId: string | null;
  }> {
    await this.apps.get(appKey);
    this.factors.requireSealer();
    const token = MFA_SCHEME.exec(authorization?.trim() ?? '')?.[1];
    if (!token)
      throw MarketplaceError.invalidCredentials(
        'this call needs Authorization: KinveyMFA <mfaSessionToken>',
      );
    const digest = hashToken(token);
    const session = await this.mfa.findSession(
      appKey,
      digest,
      this.clock.now(),
    );
    if (!session)
      throw MarketplaceError.invalidCredentials(
        'unknown or expired MFA session token',
      );
    return { ...session, digest };
  }
}
