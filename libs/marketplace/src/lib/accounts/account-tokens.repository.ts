import { Injectable } from '@nestjs/common';

import { MarketplaceDatabase } from '../persistence/marketplace-database';

export type AccountTokenKind = 'password-reset' | 'email-verification';

export interface AccountToken {
  readonly appKey: string;
  readonly userId: string;
  readonly email: string;
}

/** A live token of a kind in an app, as of `$4`. */
const LIVE = `digest = $1 AND kind = $2 AND app_key = $3 AND used_at IS NULL AND expires_at > $4`;
const FIELDS = `app_key AS "appKey", user_id AS "userId", email`;

/** Mailed tokens, by the SHA-256 of their text. */
@Injectable()
export class AccountTokensRepository {
  constructor(private readonly db: MarketplaceDatabase) {}

  /**
   * Stores a new token unless one of this kind went to the same user within
   * `quietMs` (so a public app secret cannot mail a user again and again),
   * and forgets the expired ones of every app on the way: tokens are mailed
   * rarely, so this keeps the table small without a job of its own.
   * Whether it stored one (and the mail should go).
   */
  async insert(
    digest: string,
    kind: AccountTokenKind,
    token: AccountToken,
    expiresAt: Date,
    now: Date,
    quietMs = 0,
  ): Promise<boolean> {
    const rows = await this.db.primary.rows(
      `WITH expired AS (DELETE FROM marketplace.account_tokens WHERE expires_at <= $7)
       INSERT INTO marketplace.account_tokens (digest, app_key, user_id, kind, email, expires_at)
       SELECT $1, $2, $3, $4, $5, $6
        WHERE NOT EXISTS (
          SELECT 1 FROM marketplace.account_tokens
           WHERE app_key = $2 AND user_id = $3 AND kind = $4
             AND expires_at > $6::timestamptz - make_interval(secs => $8::float8 / 1000))
       RETURNING 1`,
      [
        digest,
        token.appKey,
        token.userId,
        kind,
        token.email,
        expiresAt,
        now,
        quietMs,
      ],
    );
    return rows.length === 1;
  }

  /**
   * The live token of this kind in the app: read (`use` false, the page
   * shows its form) or used up, once: of concurrent uses only one gets it.
   */
  async live(
    digest: string,
    kind: AccountTokenKind,
    appKey: string,
    now: Date,
    use: boolean,
  ): Promise<AccountToken | undefined> {
    const rows = await this.db.primary.rows<AccountToken>(
      use
        ? `UPDATE marketplace.account_tokens SET used_at = $4 WHERE ${LIVE} RETURNING ${FIELDS}`
        : `SELECT ${FIELDS} FROM marketplace.account_tokens WHERE ${LIVE}`,
      [digest, kind, appKey, now],
    );
    return rows[0];
  }

  /** Users of the app (not disabled) registered with this address. */
  async usernamesByEmail(appKey: string, email: string): Promise<string[]> {
    const rows = await this.db.primary.rows<{ username: string }>(
      `SELECT username FROM marketplace.users
        WHERE app_key = $1 AND NOT disabled AND (doc->>'email' = $2 OR username = $2)
        ORDER BY username`,
      [appKey, email],
    );
    return rows.map((row) => row.username);
  }
}
