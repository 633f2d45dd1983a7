import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Sql, isUniqueViolation } from '@quitanda/database';
import type { SqlExecutor } from '@quitanda/database';
import { DataSource } from 'typeorm';

import type { KinveyDoc } from '../kinvey/kinvey-doc';
import { MARKETPLACE_DATA_SOURCE } from '../marketplace.constants';
import { MarketplaceError, MarketplaceErrorCode } from '../marketplace.errors';

export interface StoredUser {
  readonly id: string;
  readonly username: string;
  readonly doc: KinveyDoc;
  readonly passwordHash: string;
  readonly disabled: boolean;
}

interface UserRow {
  id: string;
  username: string;
  doc: KinveyDoc;
  password_hash: string;
  disabled: boolean;
}

const COLUMNS = 'id, username, doc, password_hash, disabled';

function toUser(row: UserRow): StoredUser {
  return {
    id: row.id,
    username: row.username,
    doc: row.doc,
    passwordHash: row.password_hash,
    disabled: row.disabled,
  };
}

/** Users, their session tokens and failed-login counters. */
@Injectable()
export class UsersRepository {
  readonly sql: Sql;

  constructor(
    @InjectDataSource(MARKETPLACE_DATA_SOURCE) dataSource: DataSource,
  ) {
    this.sql = new Sql(dataSource);
  }

  async insert(
    appKey: string,
    user: Omit<StoredUser, 'disabled'>,
    now: Date,
  ): Promise<void> {
    try {
      await this.sql.rows(
        `INSERT INTO marketplace.users (app_key, id, username, doc, password_hash, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6)`,
        [appKey, user.id, user.username, user.doc, user.passwordHash, now],
      );
    } catch (error) {
      if (isUniqueViolation(error, 'users_app_key_username_key'))
        throw new MarketplaceError(
          MarketplaceErrorCode.UserAlreadyExists,
          'This username is already taken. Please retry your request with a different username',
        );
      if (isUniqueViolation(error))
        throw new MarketplaceError(
          MarketplaceErrorCode.DuplicateEntity,
          'An entity with this _id already exists.',
          user.id,
        );
      throw error;
    }
  }

  async findById(appKey: string, id: string): Promise<StoredUser | undefined> {
    const rows = await this.sql.rows<UserRow>(
      `SELECT ${COLUMNS} FROM marketplace.users WHERE app_key = $1 AND id = $2`,
      [appKey, id],
    );
    return rows[0] ? toUser(rows[0]) : undefined;
  }

  async findByUsername(
    appKey: string,
    username: string,
  ): Promise<StoredUser | undefined> {
    const rows = await this.sql.rows<UserRow>(
      `SELECT ${COLUMNS} FROM marketplace.users WHERE app_key = $1 AND username = $2`,
      [appKey, username],
    );
    return rows[0] ? toUser(rows[0]) : undefined;
  }

  /** Enabled users whose document matches a compiled filter over `doc`. */
  async query(
    appKey: string,
    where: string,
    values: readonly unknown[],
    tail = '',
  ): Promise<KinveyDoc[]> {
    const rows = await this.sql.rows<{ doc: KinveyDoc }>(
      `SELECT doc FROM marketplace.users
        WHERE app_key = $1 AND NOT disabled AND (${where}) ${tail}`,
      [appKey, ...values],
    );
    return rows.map((row) => row.doc);
  }

  async update(
    appKey: string,
    id: string,
    username: string,
    doc: KinveyDoc,
    passwordHash: string | undefined,
    now: Date,
  ): Promise<void> {
    try {
      await this.sql.rows(
        `UPDATE marketplace.users SET username = $3, doc = $4,
                password_hash = COALESCE($5, password_hash), updated_at = $6
          WHERE app_key = $1 AND id = $2`,
        [appKey, id, username, doc, passwordHash ?? null, now],
      );
    } catch (error) {
      if (isUniqueViolation(error, 'users_app_key_username_key'))
        throw new MarketplaceError(
          MarketplaceErrorCode.UserAlreadyExists,
          'This username is already taken. Please retry your request with a different username',
        );
      throw error;
    }
  }

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

  async usernameExists(appKey: string, username: string): Promise<boolean> {
    const rows = await this.sql.rows(
      'SELECT 1 FROM marketplace.users WHERE app_key = $1 AND username = $2',
      [appKey, username],
    );
    return rows.length > 0;
  }

  /** Soft delete: the user stays (its name taken) but cannot log in. */
  async disable(appKey: string, id: string): Promise<boolean> {
    return this.sql.transaction(async (tx) => {
      const rows = await tx.rows(
        'UPDATE marketplace.users SET disabled = true WHERE app_key = $1 AND id = $2 RETURNING id',
        [appKey, id],
      );
      await this.revokeAll(appKey, id, tx);
      return rows.length > 0;
    });
  }

  async remove(appKey: string, id: string): Promise<boolean> {
    return this.sql.transaction(async (tx) => {
      const rows = await tx.rows(
        'DELETE FROM marketplace.users WHERE app_key = $1 AND id = $2 RETURNING id',
        [appKey, id],
      );
      await tx.rows(
        'DELETE FROM marketplace.user_tokens WHERE app_key = $1 AND user_id = $2',
        [appKey, id],
      );
      return rows.length > 0;
    });
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

  /** The enabled user owning a live token of this app. */
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

  async revokeToken(appKey: string, digest: string): Promise<void> {
    await this.sql.rows(
      'UPDATE marketplace.user_tokens SET revoked = true WHERE app_key = $1 AND digest = $2',
      [appKey, digest],
    );
  }

  /** Revokes every token of the user except `keepDigest`. */
  async revokeAll(
    appKey: string,
    userId: string,
    sql: SqlExecutor = this.sql,
    keepDigest = '',
  ): Promise<void> {
    await sql.rows(
      `UPDATE marketplace.user_tokens SET revoked = true
        WHERE app_key = $1 AND user_id = $2 AND digest <> $3 AND NOT revoked`,
      [appKey, userId, keepDigest],
    );
  }

  /** The username's failed-login state; undefined when it has none. */
  async attempts(
    appKey: string,
    username: string,
  ): Promise<{ lockedUntil: Date | null } | undefined> {
    const rows = await this.sql.rows<{ locked_until: Date | null }>(
      'SELECT locked_until FROM marketplace.login_attempts WHERE app_key = $1 AND username = $2',
      [appKey, username],
    );
    return rows[0] ? { lockedUntil: rows[0].locked_until } : undefined;
  }

  /**
   * Counts a failed login and returns the count; from `maxFailures` on, the
   * username is locked for `lockSeconds`. Failures older than the lock
   * window are forgotten.
   */
  async recordFailure(
    appKey: string,
    username: string,
    now: Date,
    maxFailures: number,
    lockSeconds: number,
  ): Promise<number> {
    const rows = await this.sql.rows<{ failures: number }>(
      `INSERT INTO marketplace.login_attempts AS a (app_key, username, failures, last_failure_at, locked_until)
       VALUES ($1, $2, 1, $3, CASE WHEN $4 <= 1 THEN $3::timestamptz + make_interval(secs => $5) END)
       ON CONFLICT (app_key, username) DO UPDATE SET
         failures = CASE WHEN a.last_failure_at < $3::timestamptz - make_interval(secs => $5)
                         THEN 1 ELSE a.failures + 1 END,
         last_failure_at = $3,
         locked_until = CASE
           WHEN (CASE WHEN a.last_failure_at < $3::timestamptz - make_interval(secs => $5)
                      THEN 1 ELSE a.failures + 1 END) >= $4
           THEN $3::timestamptz + make_interval(secs => $5) ELSE a.locked_until END
       RETURNING failures`,
      [appKey, username, now, maxFailures, lockSeconds],
    );
    return rows[0]?.failures ?? 1;
  }

  async clearFailures(appKey: string, username: string): Promise<void> {
    await this.sql.rows(
      'DELETE FROM marketplace.login_attempts WHERE app_key = $1 AND username = $2',
      [appKey, username],
    );
  }
}
