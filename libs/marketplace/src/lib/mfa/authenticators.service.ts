import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, hashToken, newId, randomToken } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { requireUserOrMaster } from '../auth/access';
import type { Principal } from '../auth/principal';
import { MarketplaceError } from '../common/marketplace.errors';
import { isPlainObject } from '../kinvey/kinvey-doc';
import { MarketplaceDatabase } from '../persistence/marketplace-database';
import { MfaRepository } from './mfa.repository';
import type { AuthenticatorSummary } from './mfa.repository';
import { SecondFactorService, openSecret } from './second-factor.service';
import { newTotpSecret } from './totp';

/** Verified authenticators one user may hold (plus one being enrolled). */
export const MAX_AUTHENTICATORS = 10;
const MAX_NAME = 256;
const RECOVERY_CODES = 10;
const TOTP = 'totp';

export interface NewAuthenticator extends AuthenticatorSummary {
  readonly config: { readonly secret: string };
}

/**
 * A user's authenticators (`/user/{appKey}/{id}/authenticators`) and
 * recovery codes, as the user itself or the master secret manages them.
 * An authenticator counts once a code of it was verified; the first one
 * verified brings the recovery codes, shown that once.
 */
@Injectable()
export class AuthenticatorsService {
  constructor(
    private readonly mfa: MfaRepository,
    private readonly factors: SecondFactorService,
    private readonly db: MarketplaceDatabase,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async create(
    principal: Principal,
    userId: string,
    body: unknown,
  ): Promise<NewAuthenticator> {
    const sealer = this.factors.requireSealer();
    const appKey = await this.owner(principal, userId);
    if (!isPlainObject(body)) throw MarketplaceError.notAnObject();
    const { name, type = TOTP } = body;
    if (typeof name !== 'string' || !name.trim() || name.length > MAX_NAME)
      throw MarketplaceError.badRequest(
        `name must be text of 1 to ${MAX_NAME} characters.`,
        'name',
      );
    if (type !== TOTP)
      throw MarketplaceError.badRequest('type must be "totp".', 'type');
    if ((await this.mfa.countVerified(appKey, userId)) >= MAX_AUTHENTICATORS)
      throw MarketplaceError.outOfRange(
        `A user may have at most ${MAX_AUTHENTICATORS} authenticators.`,
        'authenticators',
      );
    const secret = newTotpSecret();
    const authenticator = { id: newId(), name, type: TOTP };
    await this.mfa.insertAuthenticator(
      appKey,
      userId,
      { ...authenticator, sealedSecret: sealer.seal(secret), verified: false },
      this.clock.now(),
    );
    return { ...authenticator, config: { secret } };
  }

  async verify(
    principal: Principal,
    userId: string,
    id: string,
    body: unknown,
  ): Promise<{ recoveryCodes?: string[] }> {
    const appKey = await this.owner(principal, userId);
    if (!isPlainObject(body)) throw MarketplaceError.notAnObject();
    await this.factors.checkCode(appKey, userId, id, body['code']);
    if (await this.mfa.hasRecoveryCodes(appKey, userId)) return {};
    return { recoveryCodes: await this.newRecoveryCodes(appKey, userId) };
  }

  async list(
    principal: Principal,
    userId: string,
  ): Promise<AuthenticatorSummary[]> {
    const appKey = await this.owner(principal, userId);
    return this.mfa.listVerified(appKey, userId);
  }

  async remove(
    principal: Principal,
    userId: string,
    id: string,
  ): Promise<void> {
    const appKey = await this.owner(principal, userId);
    await this.db.transaction(async (tx) => {
      if (!(await this.mfa.removeAuthenticator(appKey, userId, id, tx)))
        throw MarketplaceError.authenticatorNotFound(id);
      await this.mfa.dropUnusedFactors(appKey, userId, tx);
    });
  }

  async regenerateRecoveryCodes(
    principal: Principal,
    userId: string,
  ): Promise<{ recoveryCodes: string[] }> {
    const appKey = await this.owner(principal, userId);
    if ((await this.mfa.listVerified(appKey, userId)).length === 0)
      throw MarketplaceError.badRequest(
        'Multi-factor authentication is not enabled for this user.',
        'authenticators',
      );
    return { recoveryCodes: await this.newRecoveryCodes(appKey, userId) };
  }

  /**
   * The unused recovery codes, as Kinvey lists them: sealed like the TOTP
   * secrets (a leaked secret is worth as much as the codes); login matches
   * their digests.
   */
  async listRecoveryCodes(
    principal: Principal,
    userId: string,
  ): Promise<{ recoveryCodes: string[] }> {
    const appKey = await this.owner(principal, userId);
    const sealer = this.factors.requireSealer();
    const sealed = await this.mfa.listSealedRecoveryCodes(appKey, userId);
    return { recoveryCodes: sealed.map((code) => openSecret(sealer, code)) };
  }

  private async newRecoveryCodes(
    appKey: string,
    userId: string,
  ): Promise<string[]> {
    const sealer = this.factors.requireSealer();
    const codes = Array.from({ length: RECOVERY_CODES }, () => randomToken(8));
    const stored = codes.map((code) => ({
      digest: hashToken(code),
      sealed: sealer.seal(code),
    }));
    await this.db.transaction((tx) =>
      this.mfa.replaceRecoveryCodes(appKey, userId, stored, tx),
    );
    return codes;
  }

  /** The app key, once the caller may manage `userId`'s factors. */
  private async owner(principal: Principal, userId: string): Promise<string> {
    this.factors.requireSealer();
    requireUserOrMaster(principal);
    const appKey = principal.app.appKey;
    if (principal.kind === 'user') {
      if (principal.user.id !== userId)
        throw MarketplaceError.insufficient('only the user manages its MFA');
    } else if (!(await this.mfa.userExists(appKey, userId)))
      throw MarketplaceError.userNotFound(userId);
    return appKey;
  }
}
