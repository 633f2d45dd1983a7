import { Injectable } from '@nestjs/common';
import { isUniqueViolation } from '@quitanda/database';

import type { KinveyDoc } from '../kinvey/kinvey-doc';
import { USER_COLUMNS, toUser } from '../auth/stored-user';
import type { StoredUser, UserRow } from '../auth/stored-user';
import { MarketplaceError } from '../common/marketplace.errors';
import type { MarketplaceTx } from '../persistence/marketplace-database';
import { MarketplaceRepository } from '../persistence/marketplace-repository';
import type { FindSpec } from '../query/find-query';
import type { EmailVerification } from './email-verification';

/** Users (their sessions and failed logins: `auth/credentials.repository`). */
@Injectable()
export class UsersRepository extends MarketplaceRepository {
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
        throw MarketplaceError.usernameTaken();
      if (isUniqueViolation(error)) throw MarketplaceError.duplicateId(user.id);
      throw error;
    }
  }

  async findById(appKey: string, id: string): Promise<StoredUser | undefined> {
    const rows = await this.sql.rows<UserRow>(
      `SELECT ${USER_COLUMNS} FROM marketplace.users WHERE app_key = $1 AND id = $2`,
      [appKey, id],
    );
    return rows[0] ? toUser(rows[0]) : undefined;
  }

  /**
   * Enabled users matching a Kinvey find (filter, sort, limit, skip) that
   * `readableBy` may read (a user's own `_acl`, `privately` when the user
   * collection is private).
   */
  list(
    appKey: string,
    find: Pick<
      FindSpec,
      'readableBy' | 'privately' | 'filter' | 'sort' | 'limit' | 'skip'
    >,
  ): Promise<KinveyDoc[]> {
    return this.db.find({
      table: 'users',
      scope: { app_key: appKey, disabled: false },
      ...find,
    });
  }

  /** How many enabled users `list` would find without limit and skip. */
  count(
    appKey: string,
    find: Pick<FindSpec, 'readableBy' | 'privately' | 'filter'>,
  ): Promise<number> {
    return this.db.count({
      table: 'users',
      scope: { app_key: appKey, disabled: false },
      ...find,
    });
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
        throw MarketplaceError.usernameTaken();
      throw error;
    }
  }

  /**
   * Sets the user's `_kmd.emailVerification` alone, so that a profile
   * update made meanwhile is not overwritten; false when there is no user.
   */
  async setEmailVerification(
    appKey: string,
    id: string,
    state: EmailVerification,
  ): Promise<boolean> {
    const rows = await this.sql.rows(
      `UPDATE marketplace.users
          SET doc = jsonb_set(doc, '{_kmd}', COALESCE(doc->'_kmd', '{}'::jsonb)
                      || jsonb_build_object('emailVerification', $3::jsonb))
        WHERE app_key = $1 AND id = $2 RETURNING id`,
      [appKey, id, state],
    );
    return rows.length > 0;
  }

  async usernameExists(appKey: string, username: string): Promise<boolean> {
    const rows = await this.sql.rows(
      'SELECT 1 FROM marketplace.users WHERE app_key = $1 AND username = $2',
      [appKey, username],
    );
    return rows.length > 0;
  }

  /**
   * Soft delete: the user stays (its name taken) but cannot log in (the
   * caller revokes its sessions in the same transaction).
   */
  async disable(
    appKey: string,
    id: string,
    tx: MarketplaceTx = this.sql,
  ): Promise<boolean> {
    const rows = await tx.rows(
      'UPDATE marketplace.users SET disabled = true WHERE app_key = $1 AND id = $2 RETURNING id',
      [appKey, id],
    );
    return rows.length > 0;
  }

  /** Deletes the user (the caller deletes its sessions in the same transaction). */
  async remove(
    appKey: string,
    id: string,
    tx: MarketplaceTx = this.sql,
  ): Promise<boolean> {
    const rows = await tx.rows(
      'DELETE FROM marketplace.users WHERE app_key = $1 AND id = $2 RETURNING id',
      [appKey, id],
    );
    return rows.length > 0;
  }

  /**
   * Deletes every user of the app and what is kept for them (sessions,
   * mailed-link tokens, mail and login counters, all by user or username,
   * so a new user of a freed name starts clean); how many users.
   */
  async removeAll(appKey: string, tx: MarketplaceTx): Promise<number> {
    for (const table of [
      'user_tokens',
      'account_tokens',
      'account_mail_quiet',
      'login_attempts',
    ])
      await tx.rows(`DELETE FROM marketplace.${table} WHERE app_key = $1`, [
        appKey,
      ]);
    const rows = await tx.rows<{ n: number }>(
      `WITH gone AS (DELETE FROM marketplace.users WHERE app_key = $1 RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [appKey],
    );
    return rows[0]?.n ?? 0;
  }
}
