import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, SecretSealer, hashToken, randomToken } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { CredentialsRepository } from '../auth/credentials.repository';
import type { SecondFactorGate } from '../auth/second-factor-gate';
import { MARKETPLACE_OPTIONS } from '../common/marketplace.constants';
import { MarketplaceError } from '../common/marketplace.errors';
import type { MarketplaceModuleOptions } from '../common/marketplace.options';
import type { KinveyDoc } from '../kinvey/kinvey-doc';
import { MfaRepository } from './mfa.repository';
import { totpStep } from './totp';

const SEAL_PURPOSE = 'quitanda:mfa-totp-secret';
/** Time to answer the challenge after the password was right. */
const MFA_SESSION_MS = 5 * 60_000;
/** How long "remember this device" spares the second factor. */
const DEVICE_MS = 30 * 86_400_000;

/** A sealed TOTP secret; a Kinvey error when the key is not the sealing one. */
export function openSecret(sealer: SecretSealer, sealed: string): string {
  try {
    return sealer.open(sealed);
  } catch {
    throw MarketplaceError.featureUnavailable(
      'MARKETPLACE_MFA_ENCRYPTION_KEY is not the key this authenticator was sealed with',
      'This authenticator cannot be used on this backend; log in with a recovery code and add it again.',
    );
  }
}

/**
 * The second factor: whether a login needs one, and checking what answers
 * it (TOTP codes, each used once; recovery codes; remembered devices).
 * Failed codes are counted per user like failed passwords per username,
 * each before it is checked, so a burst gets no more than the limit.
 */
@Injectable()
export class SecondFactorService implements SecondFactorGate {
  private readonly sealer?: SecretSealer;

  constructor(
    private readonly mfa: MfaRepository,
    private readonly credentials: CredentialsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MARKETPLACE_OPTIONS)
    private readonly options: MarketplaceModuleOptions,
  ) {
    if (options.mfaEncryptionKey)
      this.sealer = new SecretSealer(options.mfaEncryptionKey, SEAL_PURPOSE);
  }

  /** The sealer of TOTP secrets; MFA is unavailable without its key. */
  requireSealer(): SecretSealer {
    if (!this.sealer)
      throw MarketplaceError.featureUnavailable(
        'MARKETPLACE_MFA_ENCRYPTION_KEY is not set',
        'Multi-factor authentication is not available on this backend.',
      );
    return this.sealer;
  }

  /**
   * After a right password: undefined when the login may go on (no MFA, a
   * remembered device, a good recovery code), else Kinvey's challenge.
   */
  async gate(
    appKey: string,
    userId: string,
    body: Readonly<Record<string, unknown>>,
  ): Promise<KinveyDoc | undefined> {
    const authenticators = await this.mfa.listVerified(appKey, userId);
    if (authenticators.length === 0) return undefined;
    const { recoveryCode, deviceToken } = body;
    if (typeof recoveryCode === 'string') {
      await this.useRecoveryCode(appKey, userId, recoveryCode.trim());
      return undefined;
    }
    if (
      typeof deviceToken === 'string' &&
      (await this.mfa.isRememberedDevice(
        appKey,
        userId,
        hashToken(deviceToken),
        this.clock.now(),
      ))
    )
      return undefined;
    const token = await this.newToken(
      'mfa_sessions',
      appKey,
      userId,
      MFA_SESSION_MS,
    );
    return {
      mfaRequired: true,
      mfaSessionToken: token,
      userId,
      authenticators,
    };
  }

  /**
   * Checks a TOTP code of the authenticator: right, in time, and for a
   * verified one not used before (a login's code never logs in again).
   */
  async checkCode(
    appKey: string,
    userId: string,
    authenticatorId: string,
    code: unknown,
  ): Promise<void> {
    const sealer = this.requireSealer();
    const authenticator = await this.mfa.findAuthenticator(
      appKey,
      userId,
      authenticatorId,
    );
    if (!authenticator)
      throw MarketplaceError.authenticatorNotFound(authenticatorId);
    await this.countAttempt(appKey, userId);
    const now = this.clock.now();
    const step =
      typeof code === 'string' || typeof code === 'number'
        ? totpStep(
            openSecret(sealer, authenticator.sealedSecret),
            String(code),
            now,
          )
        : undefined;
    // The code that confirms a pending authenticator is not a sign-in: it
    // leaves the step free for one login (RFC 6238 5.2 guards logins, and
    // the enrolment reply already showed the secret itself). Every other
    // use, a login or verifying again, takes the step for good.
    const accepted =
      step !== undefined &&
      (authenticator.verified
        ? await this.mfa.acceptStep(appKey, userId, authenticatorId, step)
        : await this.mfa.confirm(appKey, userId, authenticatorId));
    if (!accepted) throw MarketplaceError.invalidMfaCode();
    await this.credentials.clearFailures(appKey, userId, 'mfa_attempts');
  }

  /** A token that spares this device the second factor for a while. */
  rememberDevice(appKey: string, userId: string): Promise<string> {
    return this.newToken('mfa_devices', appKey, userId, DEVICE_MS);
  }

  /** A random token of the user, stored as its digest, living `lifeMs`. */
  private async newToken(
    table: 'mfa_sessions' | 'mfa_devices',
    appKey: string,
    userId: string,
    lifeMs: number,
  ): Promise<string> {
    const token = randomToken(24);
    const now = this.clock.now();
    await this.mfa.insertToken(
      table,
      hashToken(token),
      appKey,
      userId,
      new Date(now.getTime() + lifeMs),
      now,
    );
    return token;
  }

  private async useRecoveryCode(
    appKey: string,
    userId: string,
    code: string,
  ): Promise<void> {
    await this.countAttempt(appKey, userId);
    if (!(await this.mfa.useRecoveryCode(appKey, userId, hashToken(code))))
      throw MarketplaceError.invalidCredentials('wrong or used recovery code');
    await this.credentials.clearFailures(appKey, userId, 'mfa_attempts');
  }

  private async countAttempt(appKey: string, userId: string): Promise<void> {
    const now = this.clock.now();
    const attempt = await this.credentials.countAttempt(
      appKey,
      userId,
      now,
      this.options.loginMaxFailures,
      this.options.loginLockSeconds,
      'mfa_attempts',
    );
    if ('lockedUntil' in attempt)
      throw MarketplaceError.tooManyLogins(attempt.lockedUntil, now);
  }
}
