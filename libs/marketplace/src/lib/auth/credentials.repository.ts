import { Injectable } from '@nestjs/common';

import type { KinveyDoc } from '../kinvey/kinvey-doc';
import type { MarketplaceTx } from '../persistence/marketplace-database';
import { MarketplaceRepository } from '../persistence/marketplace-repository';
import { USER_COLUMNS, toUser } from './stored-user';
import type { StoredUser, UserRow } from './stored-user';

/**
 * Where attempts are counted: passwords per username, second factors
 * (`mfa_attempts`) per user id. A constant, never input.
 */
export type AttemptsTable = 'login_attempts' | 'mfa_attempts';

/**
 * What authentication reads and writes: session tokens, failed-login
 * counters, and the users they lead to.
 */
@Injectable()
export class CredentialsRepository extends MarketplaceRepository {
  async findByUsername(
    appKey: string,
    username: string,
  ): Promise<StoredUser | undefined> {
    const rows = await this.sql.rows<UserRow>(
      `SELECT ${USER_COLUMNS} FROM marketplace.users WHERE app_key = $1 AND username = $2`,
      [appKey, username],
    );
    return rows[0] ? toUser(rows[0]) : undefined;
  }

  async insertToken(
    appKey: string,
    userId: string,
    digest: string,
    expiresAt: Date,
    now: Date,
  ): Promise<void> {
    await this.sql.rows(
      `INSERT INTO marketplace.user_tokens (digest, app_key, user_id, expires_at, created_at)
       VALUES ($1, $2, $3, $4, $5)`,
      [digest, appKey, userId, expiresAt, now],
    );
  }

  /** Stamps a successful login (`_kmd.llt`); the user's doc after it. */
  async setLastLogin(
    appKey: string,
    id: string,
    llt: string,
  ): Promise<KinveyDoc> {
    const rows = await this.sql.rows<{ doc: KinveyDoc }>(
      `UPDATE marketplace.users
          SET doc = jsonb_set(doc, '{_kmd,llt}', to_jsonb($3::text))
        WHERE app_key = $1 AND id = $2 RETURNING doc`,
      [appKey, id, llt],
    );
    return rows[0]?.doc ?? {};
  }

  /** The user of a live session token, and until when the token lives. */
  async findSession(
    appKey: string,
    digest: string,
    now: Date,
  ): Promise<{ user: StoredUser; expiresAt: Date } | undefined> {
    const rows = await this.sql.prepared<UserRow & { expires_at: Date }>(
      'mkt_user_by_token',
      `SELECT u.id, u.username, u.doc, u.password_hash, u.disabled, t.expires_at
         FROM marketplace.user_tokens t
         JOIN marketplace.users u ON u.app_key = t.app_key AND u.id = t.user_id
        WHERE t.digest = $1 AND t.app_key = $2 AND NOT t.revoked
          AND t.expires_at > $3 AND NOT u.disabled`,
      [digest, appKey, now],
    );
    const row = rows[0];
    return row ? { user: toUser(row), expiresAt: row.expires_at } : undefined;
  }

  /** Deletes every token of a user being deleted. */
  async removeAll(
    appKey: string,
    userId: string,
    tx: MarketplaceTx = this.sql,
  ): Promise<void> {
    await tx.rows(
      'DELETE FROM marketplace.user_tokens WHERE app_key = $1 AND user_id = $2',
      [appKey, userId],
    );
  }

  async revokeToken(appKey: string, digest: string): Promise<void> {
    await this.sql.rows(
      'UPDATE marketplace.user_tokens SET revoked = true WHERE app_key = $1 AND digest = $2',
      [appKey, digest],
    );
  }

  /**
   * Revokes every token of the user except `keepDigest`, and forgets its
   * remembered devices.
   */
  async revokeAll(
    appKey: string,
    userId: string,
    keepDigest = '',
    tx: MarketplaceTx = this.sql,
  ): Promise<void> {
    await tx.rows(
      `UPDATE marketplace.user_tokens SET revoked = true
        WHERE app_key = $1 AND user_id = $2 AND digest <> $3 AND NOT revoked`,
      [appKey, userId, keepDigest],
    );
    // A remembered device skips the second factor: it is a credential too.
    await tx.rows(
      'DELETE FROM marketplace.mfa_devices WHERE app_key = $1 AND user_id = $2',
      [appKey, userId],
    );
  }

  /**
   * Counts a login attempt before its password is checked, unless the
   * username is locked: the attempts counted in the window, this one
   * included (from `maxFailures` on, the username is locked for
   * `lockSeconds`; attempts older than that are forgotten), or the end of
   * the lock. One statement, so however many attempts race, across
   * replicas too, no more than `maxFailures` are checked per lock.
   */
  async countAttempt(
    appKey: string,
    username: string,
    now: Date,
    maxFailures: number,
    lockSeconds: number,
    table: AttemptsTable = 'login_attempts',
  ): Promise<{ failures: number } | { lockedUntil: Date }> {
    const rows = await this.sql.rows<{ failures: number }>(
      `INSERT INTO marketplace.${table} AS a (app_key, username, failures, last_failure_at, locked_until)
       VALUES ($1, $2, 1, $3, CASE WHEN $4 <= 1 THEN $3::timestamptz + make_interval(secs => $5) END)
       ON CONFLICT (app_key, username) DO UPDATE SET
         failures = CASE WHEN a.last_failure_at < $3::timestamptz - make_interval(secs => $5)
                         THEN 1 ELSE a.failures + 1 END,
         last_failure_at = $3,
         locked_until = CASE
           WHEN (CASE WHEN a.last_failure_at < $3::timestamptz - make_interval(secs => $5)
                      THEN 1 ELSE a.failures + 1 END) >= $4
           THEN $3::timestamptz + make_interval(secs => $5) ELSE a.locked_until END
       WHERE a.locked_until IS NULL OR a.locked_until <= $3
       RETURNING failures`,
      [appKey, username, now, maxFailures, lockSeconds],
    );
    if (rows[0]) return { failures: rows[0].failures };
    const locked = await this.sql.rows<{ locked_until: Date | null }>(
      `SELECT locked_until FROM marketplace.${table} WHERE app_key = $1 AND username = $2`,
      [appKey, username],
    );
    return {
      lockedUntil:
        locked[0]?.locked_until ?? new Date(now.getTime() + lockSeconds * 1000),
    };
  }

  /**
   * Forgets every username's attempts, and every user's second-factor
   * attempts, last made before `before`.
   */
  async purgeAttempts(before: Date): Promise<number> {
    const rows = await this.sql.rows<{ n: number }>(
      `WITH logins AS (DELETE FROM marketplace.login_attempts WHERE last_failure_at < $1 RETURNING 1),
            factors AS (DELETE FROM marketplace.mfa_attempts WHERE last_failure_at < $1 RETURNING 1)
       SELECT (SELECT count(*) FROM logins)::int + (SELECT count(*) FROM factors)::int AS n`,
      [before],
    );
    return rows[0]?.n ?? 0;
  }

  /** Forgets the username's attempts (a successful login). */
  async clearFailures(
    appKey: string,
    username: string,
    table: AttemptsTable = 'login_attempts',
  ): Promise<void> {
    await this.sql.rows(
      `DELETE FROM marketplace.${table} WHERE app_key = $1 AND username = $2`,
      [appKey, username],
    );
  }
}
