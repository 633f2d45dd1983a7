import { Injectable } from '@nestjs/common';

import type { MarketplaceTx } from '../persistence/marketplace-database';
import { MarketplaceRepository } from '../persistence/marketplace-repository';

export interface AuthenticatorSummary {
  readonly id: string;
  readonly name: string;
  readonly type: string;
}

export interface StoredAuthenticator extends AuthenticatorSummary {
  readonly sealedSecret: string;
  readonly verified: boolean;
}

interface AuthenticatorRow {
  id: string;
  name: string;
  type: string;
  sealed_secret: string;
  verified: boolean;
}

/** Authenticators, recovery codes, second-factor sessions and devices. */
@Injectable()
export class MfaRepository extends MarketplaceRepository {
  /**
   * Stores a new, unverified authenticator in place of any other the user
   * left unverified: one enrolment is pending at a time, so abandoned ones
   * (the SDK gives up after 10 wrong codes) never pile up.
   */
  async insertAuthenticator(
    appKey: string,
    userId: string,
    authenticator: StoredAuthenticator,
    now: Date,
  ): Promise<void> {
    await this.sql.rows(
      'DELETE FROM marketplace.mfa_authenticators WHERE app_key = $1 AND user_id = $2 AND NOT verified',
      [appKey, userId],
    );
    await this.sql.rows(
      `INSERT INTO marketplace.mfa_authenticators (app_key, user_id, id, name, type, sealed_secret, verified, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, false, $7)`,
      [
        appKey,
        userId,
        authenticator.id,
        authenticator.name,
        authenticator.type,
        authenticator.sealedSecret,
        now,
      ],
    );
  }

  async findAuthenticator(
    appKey: string,
    userId: string,
    id: string,
  ): Promise<StoredAuthenticator | undefined> {
    const rows = await this.sql.rows<AuthenticatorRow>(
      `SELECT id, name, type, sealed_secret, verified FROM marketplace.mfa_authenticators
        WHERE app_key = $1 AND user_id = $2 AND id = $3`,
      [appKey, userId, id],
    );
    const row = rows[0];
    return row
      ? {
          id: row.id,
          name: row.name,
          type: row.type,
          sealedSecret: row.sealed_secret,
          verified: row.verified,
        }
      : undefined;
  }

  /** Whether the user exists in the app (master may act on any). */
  async userExists(appKey: string, userId: string): Promise<boolean> {
    const rows = await this.sql.rows(
      'SELECT 1 FROM marketplace.users WHERE app_key = $1 AND id = $2',
      [appKey, userId],
    );
    return rows.length > 0;
  }

  async countVerified(appKey: string, userId: string): Promise<number> {
    const rows = await this.sql.rows<{ n: number }>(
      'SELECT count(*)::int AS n FROM marketplace.mfa_authenticators WHERE app_key = $1 AND user_id = $2 AND verified',
      [appKey, userId],
    );
    return rows[0]?.n ?? 0;
  }

  /** The verified authenticators: the user has MFA on when there is one. */
  async listVerified(
    appKey: string,
    userId: string,
  ): Promise<AuthenticatorSummary[]> {
    return this.sql.rows<AuthenticatorSummary>(
      `SELECT id, name, type FROM marketplace.mfa_authenticators
        WHERE app_key = $1 AND user_id = $2 AND verified ORDER BY created_at, id`,
      [appKey, userId],
    );
  }

  /**
   * Confirms a pending authenticator (its enrolment). No time step is
   * recorded: confirming is not signing in, so the confirming code may
   * still complete one login. Only one confirmation can succeed.
   */
  async confirm(appKey: string, userId: string, id: string): Promise<boolean> {
    const rows = await this.sql.rows(
      `UPDATE marketplace.mfa_authenticators SET verified = true
        WHERE app_key = $1 AND user_id = $2 AND id = $3 AND NOT verified
        RETURNING id`,
      [appKey, userId, id],
    );
    return rows.length > 0;
  }

  /**
   * Accepts time step `step` of a verified authenticator, unless it or a
   * later one was accepted already: one statement, so two requests racing
   * with the same code cannot both pass.
   */
  async acceptStep(
    appKey: string,
    userId: string,
    id: string,
    step: number,
  ): Promise<boolean> {
    const rows = await this.sql.rows(
      `UPDATE marketplace.mfa_authenticators SET last_step = $4
        WHERE app_key = $1 AND user_id = $2 AND id = $3 AND verified
          AND (last_step IS NULL OR last_step < $4) RETURNING id`,
      [appKey, userId, id, step],
    );
    return rows.length > 0;
  }

  /** Removes one authenticator; false when the user has none of that id. */
  async removeAuthenticator(
    appKey: string,
    userId: string,
    id: string,
    tx: MarketplaceTx = this.sql,
  ): Promise<boolean> {
    // Removals of one user's authenticators take turns (the SDK's disable
    // sends them all at once), so the last one sees that none is left and
    // its transaction drops the recovery codes and remembered devices.
    await tx.rows(
      `SELECT id FROM marketplace.mfa_authenticators
        WHERE app_key = $1 AND user_id = $2 FOR UPDATE`,
      [appKey, userId],
    );
    const rows = await tx.rows(
      `DELETE FROM marketplace.mfa_authenticators
        WHERE app_key = $1 AND user_id = $2 AND id = $3 RETURNING id`,
      [appKey, userId, id],
    );
    return rows.length > 0;
  }

  /**
   * Forgets what only MFA needs (recovery codes, remembered devices) once
   * the user has no verified authenticator left.
   */
  async dropUnusedFactors(
    appKey: string,
    userId: string,
    tx: MarketplaceTx = this.sql,
  ): Promise<void> {
    const params = [appKey, userId];
    const noneLeft = `NOT EXISTS (SELECT 1 FROM marketplace.mfa_authenticators a
      WHERE a.app_key = $1 AND a.user_id = $2 AND a.verified)`;
    await tx.rows(
      `DELETE FROM marketplace.mfa_recovery_codes WHERE app_key = $1 AND user_id = $2 AND ${noneLeft}`,
      params,
    );
    await tx.rows(
      `DELETE FROM marketplace.mfa_devices WHERE app_key = $1 AND user_id = $2 AND ${noneLeft}`,
      params,
    );
  }

  async hasRecoveryCodes(appKey: string, userId: string): Promise<boolean> {
    const rows = await this.sql.rows(
      'SELECT 1 FROM marketplace.mfa_recovery_codes WHERE app_key = $1 AND user_id = $2 LIMIT 1',
      [appKey, userId],
    );
    return rows.length > 0;
  }

  /** Replaces the user's recovery codes by these, kept in this order. */
  async replaceRecoveryCodes(
    appKey: string,
    userId: string,
    codes: readonly { digest: string; sealed: string }[],
    tx: MarketplaceTx,
  ): Promise<void> {
    await tx.rows(
      'DELETE FROM marketplace.mfa_recovery_codes WHERE app_key = $1 AND user_id = $2',
      [appKey, userId],
    );
    await tx.rows(
      `INSERT INTO marketplace.mfa_recovery_codes (app_key, user_id, digest, sealed_code, position)
       SELECT $1, $2, c.digest, c.sealed, c.position
         FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS c(digest, sealed, position)`,
      [appKey, userId, codes.map((c) => c.digest), codes.map((c) => c.sealed)],
    );
  }

  /** The sealed recovery codes not used yet, in the order they were made. */
  async listSealedRecoveryCodes(
    appKey: string,
    userId: string,
  ): Promise<string[]> {
    const rows = await this.sql.rows<{ sealed_code: string }>(
      `SELECT sealed_code FROM marketplace.mfa_recovery_codes
        WHERE app_key = $1 AND user_id = $2 AND sealed_code IS NOT NULL
        ORDER BY position`,
      [appKey, userId],
    );
    return rows.map((row) => row.sealed_code);
  }

  /** Uses up a recovery code: true once per code. */
  async useRecoveryCode(
    appKey: string,
    userId: string,
    digest: string,
  ): Promise<boolean> {
    const rows = await this.sql.rows(
      `DELETE FROM marketplace.mfa_recovery_codes
        WHERE app_key = $1 AND user_id = $2 AND digest = $3 RETURNING 1`,
      [appKey, userId, digest],
    );
    return rows.length > 0;
  }

  /**
   * Stores the digest of a second-factor session token or of a remembered
   * device's token, and forgets the user's expired ones of that table.
   */
  async insertToken(
    table: 'mfa_sessions' | 'mfa_devices',
    digest: string,
    appKey: string,
    userId: string,
    expiresAt: Date,
    now: Date,
  ): Promise<void> {
    await this.sql.rows(
      `DELETE FROM marketplace.${table} WHERE app_key = $1 AND user_id = $2 AND expires_at <= $3`,
      [appKey, userId, now],
    );
    await this.sql.rows(
      `INSERT INTO marketplace.${table} (digest, app_key, user_id, expires_at)
       VALUES ($1, $2, $3, $4)`,
      [digest, appKey, userId, expiresAt],
    );
  }

  /** The user of a live second-factor session, and its chosen authenticator. */
  async findSession(
    appKey: string,
    digest: string,
    now: Date,
  ): Promise<{ userId: string; authenticatorId: string | null } | undefined> {
    const rows = await this.sql.rows<{
      user_id: string;
      authenticator_id: string | null;
    }>(
      `SELECT user_id, authenticator_id FROM marketplace.mfa_sessions
        WHERE app_key = $1 AND digest = $2 AND expires_at > $3`,
      [appKey, digest, now],
    );
    const row = rows[0];
    return row
      ? { userId: row.user_id, authenticatorId: row.authenticator_id }
      : undefined;
  }

  async chooseAuthenticator(
    appKey: string,
    digest: string,
    authenticatorId: string,
  ): Promise<void> {
    await this.sql.rows(
      'UPDATE marketplace.mfa_sessions SET authenticator_id = $3 WHERE app_key = $1 AND digest = $2',
      [appKey, digest, authenticatorId],
    );
  }

  /** Ends a second-factor session: its token logs in once. */
  async endSession(appKey: string, digest: string): Promise<void> {
    await this.sql.rows(
      'DELETE FROM marketplace.mfa_sessions WHERE app_key = $1 AND digest = $2',
      [appKey, digest],
    );
  }

  async isRememberedDevice(
    appKey: string,
    userId: string,
    digest: string,
    now: Date,
  ): Promise<boolean> {
    const rows = await this.sql.rows(
      `SELECT 1 FROM marketplace.mfa_devices
        WHERE digest = $1 AND app_key = $2 AND user_id = $3 AND expires_at > $4`,
      [digest, appKey, userId, now],
    );
    return rows.length > 0;
  }

  /** Deletes everything MFA holds of a user being deleted. */
  async removeAll(
    appKey: string,
    userId: string,
    tx: MarketplaceTx = this.sql,
  ): Promise<void> {
    for (const table of [
      'mfa_authenticators',
      'mfa_recovery_codes',
      'mfa_sessions',
      'mfa_devices',
    ])
      await tx.rows(
        `DELETE FROM marketplace.${table} WHERE app_key = $1 AND user_id = $2`,
        [appKey, userId],
      );
  }
}
