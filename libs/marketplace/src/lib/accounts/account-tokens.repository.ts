import { Injectable } from '@nestjs/common';

import type { MarketplaceTx } from '../persistence/marketplace-database';
import { MarketplaceRepository } from '../persistence/marketplace-repository';

export type AccountTokenKind = 'password-reset' | 'email-verification';
/** Every kind of account mail, each limited on its own. */
export type AccountMailKind =
  | AccountTokenKind
  | 'forgot-username'
  // What the app's own business logic sends (a Flex service's `email`).
  | 'app';

export interface AccountToken {
  readonly appKey: string;
  readonly userId: string;
  readonly email: string;
}

/** A live token of a kind in an app, as of `$4`. */
const LIVE = `digest = $1 AND kind = $2 AND app_key = $3 AND used_at IS NULL AND expires_at > $4`;
const FIELDS = `app_key AS "appKey", user_id AS "userId", email`;

/**
 * Takes the recipient's turn for mail of a kind unless it had one within
 * `$5` ms: one row per app, kind and recipient, so concurrent requests
 * meet on it (the later ones wait for the first and then find it taken).
 * Returns a row when the turn was taken. Parameters: app key, kind,
 * recipient, now, quiet time.
 */
const TAKE_TURN = `INSERT INTO marketplace.account_mail_quiet AS q (app_key, kind, recipient, sent_at)
  VALUES ($1, $2, $3, $4)
  ON CONFLICT (app_key, kind, recipient) DO UPDATE SET sent_at = EXCLUDED.sent_at
   WHERE q.sent_at <= EXCLUDED.sent_at - make_interval(secs => $5::float8 / 1000)
  RETURNING 1`;

/** Mailed tokens, by the SHA-256 of their text. */
@Injectable()
export class AccountTokensRepository extends MarketplaceRepository {
  /**
   * Stores a new token unless one of this kind went to the same user within
   * `quietMs` (so a public app secret cannot mail a user again and again;
   * of concurrent requests one wins), and forgets the expired ones of every
   * app on the way: tokens are mailed rarely, so this keeps the table small
   * without a job of its own. Whether it stored one (and the mail should go).
   */
  async insert(
    digest: string,
    kind: AccountTokenKind,
    token: AccountToken,
    expiresAt: Date,
    now: Date,
    quietMs = 0,
    tx: MarketplaceTx = this.sql,
  ): Promise<boolean> {
    const rows = await tx.rows(
      `WITH turn AS (${TAKE_TURN}),
            expired AS (DELETE FROM marketplace.account_tokens WHERE expires_at <= $4)
       INSERT INTO marketplace.account_tokens (digest, app_key, user_id, kind, email, expires_at)
       SELECT $6, $1, $3, $2, $7, $8 WHERE EXISTS (SELECT 1 FROM turn)
       RETURNING 1`,
      [
        token.appKey,
        kind,
        token.userId,
        now,
        quietMs,
        digest,
        token.email,
        expiresAt,
      ],
    );
    return rows.length === 1;
  }

  /**
   * The same limit for mail that carries no token (forgotten usernames go
   * to an address): whether this mail may go now.
   */
  async takeMailTurn(
    appKey: string,
    kind: AccountMailKind,
    recipient: string,
    now: Date,
    quietMs: number,
    tx: MarketplaceTx = this.sql,
  ): Promise<boolean> {
    const rows = await tx.rows(TAKE_TURN, [
      appKey,
      kind,
      recipient,
      now,
      quietMs,
    ]);
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
    const rows = await this.sql.rows<AccountToken>(
      use
        ? `UPDATE marketplace.account_tokens SET used_at = $4 WHERE ${LIVE} RETURNING ${FIELDS}`
        : `SELECT ${FIELDS} FROM marketplace.account_tokens WHERE ${LIVE}`,
      [digest, kind, appKey, now],
    );
    return rows[0];
  }

  /** Users of the app (not disabled) registered with this address. */
  async usernamesByEmail(appKey: string, email: string): Promise<string[]> {
    const rows = await this.sql.rows<{ username: string }>(
      `SELECT username FROM marketplace.users
        WHERE app_key = $1 AND NOT disabled AND (doc->>'email' = $2 OR username = $2)
        ORDER BY username`,
      [appKey, email],
    );
    return rows.map((row) => row.username);
  }
}
