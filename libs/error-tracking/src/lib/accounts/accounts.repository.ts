import { Injectable } from '@nestjs/common';

import type { Transaction } from '../persistence/error-tracking.database';
import { ErrorTrackingRepository } from '../persistence/error-tracking-repository';
import type { TokenRecord, UserRecord } from './account.types';

interface UserRow {
  id: number;
  username: string;
  name: string;
  email: string;
  is_admin: boolean;
  state: string;
  password_expires_at: Date | null;
  created_at: Date;
}

interface TokenRow {
  id: number;
  user_id: number;
  name: string;
  scopes: string[];
  expires_at: string | null;
  revoked: boolean;
  created_at: Date;
  last_used_at: Date | null;
}

const USER_COLUMNS =
  'id, username, name, email, is_admin, state, password_expires_at, created_at';
const TOKEN_COLUMNS =
  'id, user_id, name, scopes, expires_at::text AS expires_at, revoked, created_at, last_used_at';

function toUser(row: UserRow): UserRecord {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    email: row.email,
    isAdmin: row.is_admin,
    state: row.state,
    passwordExpiresAt: row.password_expires_at,
    createdAt: row.created_at,
  };
}

function toToken(row: TokenRow): TokenRecord {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    scopes: row.scopes,
    expiresAt: row.expires_at,
    revoked: row.revoked,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}

export interface NewUser {
  readonly username: string;
  readonly name: string;
  readonly email: string;
  readonly isAdmin: boolean;
  readonly passwordHash: string | null;
  /** When the web UI starts asking for a new password (a generated one). */
  readonly passwordExpiresAt?: Date;
  readonly createdAt: Date;
}

export interface NewToken {
  readonly userId: number;
  readonly name: string;
  readonly digest: string;
  readonly scopes: readonly string[];
  readonly expiresAt: string | null;
  readonly createdAt: Date;
}

/** Transaction-level advisory lock of the first boot's root. */
export const ROOT_BOOTSTRAP_LOCK_KEY = 0x45_54_52_54; // "ETRT"

/** Users and their personal access tokens. */
@Injectable()
export class AccountsRepository extends ErrorTrackingRepository {
  async insertUser(
    user: NewUser,
    tx: Transaction = this.sql,
  ): Promise<UserRecord> {
    const rows = await tx.rows<UserRow>(
      `INSERT INTO error_tracking.users (username, name, email, is_admin, password_hash, password_expires_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${USER_COLUMNS}`,
      [
        user.username,
        user.name,
        user.email,
        user.isAdmin,
        user.passwordHash,
        user.passwordExpiresAt ?? null,
        user.createdAt,
      ],
    );
    return toUser(rows[0] as UserRow);
  }

  /**
   * Replaces a user's password (a chosen one: it no longer expires) and ends
   * their web sessions (GitLab does too).
   */
  async setPasswordHash(userId: number, passwordHash: string): Promise<void> {
    await this.sql.transaction(async (tx) => {
      await tx.rows(
        'UPDATE error_tracking.users SET password_hash = $2, password_expires_at = NULL WHERE id = $1',
        [userId, passwordHash],
      );
      await tx.rows(
        'DELETE FROM error_tracking.web_sessions WHERE user_id = $1',
        [userId],
      );
    });
  }

  async findUser(id: number): Promise<UserRecord | undefined> {
    const rows = await this.sql.rows<UserRow>(
      `SELECT ${USER_COLUMNS} FROM error_tracking.users WHERE id = $1`,
      [id],
    );
    return rows[0] ? toUser(rows[0]) : undefined;
  }

  async findUserByUsername(
    username: string,
    tx: Transaction = this.sql,
  ): Promise<UserRecord | undefined> {
    const rows = await tx.rows<UserRow>(
      `SELECT ${USER_COLUMNS} FROM error_tracking.users WHERE lower(username) = lower($1)`,
      [username],
    );
    return rows[0] ? toUser(rows[0]) : undefined;
  }

  /** The user and stored password hash for a sign-in (null: no password). */
  async findCredentials(
    username: string,
  ): Promise<{ user: UserRecord; passwordHash: string | null } | undefined> {
    const rows = await this.sql.rows<
      UserRow & { password_hash: string | null }
    >(
      `SELECT ${USER_COLUMNS}, password_hash FROM error_tracking.users WHERE lower(username) = lower($1)`,
      [username],
    );
    const row = rows[0];
    return row
      ? { user: toUser(row), passwordHash: row.password_hash }
      : undefined;
  }

  async countUsers(tx: Transaction = this.sql): Promise<number> {
    const rows = await tx.rows<{ n: number }>(
      'SELECT count(*)::int AS n FROM error_tracking.users',
    );
    return rows[0]?.n ?? 0;
  }

  async listUsers(
    limit: number,
    offset: number,
  ): Promise<{ users: UserRecord[]; total: number }> {
    const rows = await this.sql.rows<UserRow & { total: number }>(
      `SELECT ${USER_COLUMNS}, count(*) OVER ()::int AS total
         FROM error_tracking.users ORDER BY id LIMIT $1 OFFSET $2`,
      [limit, offset],
    );
    return {
      users: rows.map(toUser),
      total: rows[0]?.total ?? (offset > 0 ? await this.countUsers() : 0),
    };
  }

  async insertToken(
    token: NewToken,
    tx: Transaction = this.sql,
  ): Promise<TokenRecord | undefined> {
    const rows = await tx.rows<TokenRow>(
      `INSERT INTO error_tracking.personal_access_tokens
              (user_id, name, token_digest, scopes, expires_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (token_digest) DO NOTHING
       RETURNING ${TOKEN_COLUMNS}`,
      [
        token.userId,
        token.name,
        token.digest,
        token.scopes,
        token.expiresAt,
        token.createdAt,
      ],
    );
    // Undefined when the digest exists already (a configured token on reboot).
    return rows[0] ? toToken(rows[0]) : undefined;
  }

  async findTokenByDigest(
    digest: string,
    tx: Transaction = this.sql,
  ): Promise<{ user: UserRecord; token: TokenRecord } | undefined> {
    const rows = await tx.rows<TokenRow & { u: UserRow }>(
      `SELECT t.id, t.user_id, t.name, t.scopes, t.expires_at::text AS expires_at,
              t.revoked, t.created_at, t.last_used_at,
              json_build_object('id', u.id, 'username', u.username, 'name', u.name,
                'email', u.email, 'is_admin', u.is_admin, 'state', u.state,
                'created_at', u.created_at) AS u
         FROM error_tracking.personal_access_tokens t
         JOIN error_tracking.users u ON u.id = t.user_id
        WHERE t.token_digest = $1`,
      [digest],
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      token: toToken(row),
      user: toUser({ ...row.u, created_at: new Date(row.u.created_at) }),
    };
  }

  async listTokens(userId: number): Promise<TokenRecord[]> {
    const rows = await this.sql.rows<TokenRow>(
      `SELECT ${TOKEN_COLUMNS} FROM error_tracking.personal_access_tokens
        WHERE user_id = $1 ORDER BY id`,
      [userId],
    );
    return rows.map(toToken);
  }

  async findToken(id: number): Promise<TokenRecord | undefined> {
    const rows = await this.sql.rows<TokenRow>(
      `SELECT ${TOKEN_COLUMNS} FROM error_tracking.personal_access_tokens WHERE id = $1`,
      [id],
    );
    return rows[0] ? toToken(rows[0]) : undefined;
  }

  /**
   * Revokes the user's tokens called `name` but the one with `keepDigest`
   * (a configured token that changed replaces the previous one).
   */
  async revokeOtherTokensNamed(
    userId: number,
    name: string,
    keepDigest: string,
    tx: Transaction = this.sql,
  ): Promise<void> {
    await tx.rows(
      `UPDATE error_tracking.personal_access_tokens SET revoked = true
        WHERE user_id = $1 AND name = $2 AND token_digest <> $3 AND NOT revoked`,
      [userId, name, keepDigest],
    );
  }

  /**
   * Holds the first-boot lock until `tx` ends: replicas booting together
   * make one root.
   */
  async lockRootBootstrap(tx: Transaction): Promise<void> {
    await tx.rows('SELECT pg_advisory_xact_lock($1)', [
      ROOT_BOOTSTRAP_LOCK_KEY,
    ]);
  }

  async revokeToken(id: number): Promise<void> {
    await this.sql.rows(
      'UPDATE error_tracking.personal_access_tokens SET revoked = true WHERE id = $1',
      [id],
    );
  }

  async touchToken(id: number, now: Date): Promise<void> {
    await this.sql.rows(
      `UPDATE error_tracking.personal_access_tokens SET last_used_at = $2
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - interval '10 minutes')`,
      [id, now],
    );
  }
}
