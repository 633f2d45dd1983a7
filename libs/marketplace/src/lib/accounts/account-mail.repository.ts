import { Injectable } from '@nestjs/common';

import type { MarketplaceTx } from '../persistence/marketplace-database';
import { MarketplaceRepository } from '../persistence/marketplace-repository';
import type { AccountMailKind } from './account-tokens.repository';

/** A mail to queue: one recipient, plain text. */
export interface QueuedMail {
  readonly appKey: string;
  readonly kind: AccountMailKind;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

/** A mail a worker holds for one attempt (its `attempt`-th). */
export interface ClaimedMail {
  readonly id: string;
  readonly appKey: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly attempt: number;
}

export type MailOutcome =
  | { readonly status: 'sent' }
  | { readonly status: 'failed'; readonly error: string }
  | {
      readonly status: 'pending';
      readonly error: string;
      readonly retryAt: Date;
    };

/** How long settled rows stay (what the limits per address and app count). */
const KEPT_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** Mail allowed in the last hour: to one address of an app, and by the app. */
export interface MailLimits {
  readonly perAddressPerHour: number;
  readonly perAppPerHour: number;
}

/** The outbox of account mail (`marketplace.account_mail`). */
@Injectable()
export class AccountMailRepository extends MarketplaceRepository {
  /**
   * Whether `mail` stays within the app's limits for the hour before `now`,
   * counting every kind (a shared address gets no more mail for having many
   * users). Holds the app's outbox lock until `tx` ends, so of concurrent
   * requests only as many as the limit allows find room.
   */
  async withinLimits(
    mail: QueuedMail,
    now: Date,
    limits: MailLimits,
    tx: MarketplaceTx,
  ): Promise<boolean> {
    await tx.rows(
      `SELECT pg_advisory_xact_lock(hashtext('marketplace.account_mail'), hashtext($1))`,
      [mail.appKey],
    );
    const rows = await tx.rows<{ address: number; app: number }>(
      `SELECT count(*) FILTER (WHERE mailbox = lower($2))::int AS address,
              count(*)::int AS app
         FROM marketplace.account_mail
        WHERE app_key = $1 AND created_at > $3`,
      [mail.appKey, mail.to, new Date(now.getTime() - HOUR_MS)],
    );
    const counted = rows[0] ?? { address: 0, app: 0 };
    return (
      counted.address < limits.perAddressPerHour &&
      counted.app < limits.perAppPerHour
    );
  }

  /** Queues a mail, due now; in the transaction of what it tells about. */
  async enqueue(
    mail: QueuedMail,
    now: Date,
    tx: MarketplaceTx = this.sql,
  ): Promise<void> {
    await tx.rows(
      `INSERT INTO marketplace.account_mail
              (app_key, kind, recipient, mailbox, subject, body, next_attempt_at, created_at)
       VALUES ($1, $2, $3, lower($3), $4, $5, $6, $6)`,
      [mail.appKey, mail.kind, mail.to, mail.subject, mail.text, now],
    );
  }

  /**
   * Claims up to `limit` due mails for one attempt each: the claim moves
   * them `leaseMs` ahead, so a worker that dies holding them lets another
   * replica retry once the lease runs out; `SKIP LOCKED` keeps concurrent
   * workers off each other's rows.
   */
  async claimDue(
    now: Date,
    leaseMs: number,
    limit: number,
  ): Promise<ClaimedMail[]> {
    const rows = await this.sql.rows<{
      id: string;
      app_key: string;
      recipient: string;
      subject: string;
      body: string;
      attempts: number;
    }>(
      `WITH due AS (
         SELECT id FROM marketplace.account_mail
          WHERE status = 'pending' AND next_attempt_at <= $1
          ORDER BY next_attempt_at LIMIT $3
            FOR UPDATE SKIP LOCKED
       )
       UPDATE marketplace.account_mail m
          SET next_attempt_at = $1::timestamptz + make_interval(secs => $2::float8 / 1000),
              attempts = m.attempts + 1
        WHERE m.id IN (SELECT id FROM due)
       RETURNING m.id, m.app_key, m.recipient, m.subject, m.body, m.attempts`,
      [now, leaseMs, limit],
    );
    return rows.map((row) => ({
      id: row.id,
      appKey: row.app_key,
      to: row.recipient,
      subject: row.subject,
      text: row.body,
      attempt: row.attempts,
    }));
  }

  /** Records an attempt's outcome; a settled mail's body is dropped. */
  async settle(id: string, outcome: MailOutcome): Promise<void> {
    if (outcome.status === 'pending') {
      await this.sql.rows(
        `UPDATE marketplace.account_mail SET last_error = $2, next_attempt_at = $3
          WHERE id = $1 AND status = 'pending'`,
        [id, outcome.error, outcome.retryAt],
      );
      return;
    }
    await this.sql.rows(
      `UPDATE marketplace.account_mail SET status = $2, body = NULL, last_error = $3
        WHERE id = $1 AND status = 'pending'`,
      [id, outcome.status, outcome.status === 'failed' ? outcome.error : null],
    );
  }

  /**
   * Gives up mails queued at or before `deadline` (their links no longer work)
   * and forgets settled mails older than a day. How many were given up.
   */
  async expire(now: Date, deadline: Date): Promise<number> {
    await this.sql.rows(
      `DELETE FROM marketplace.account_mail
        WHERE status <> 'pending' AND created_at < $1`,
      [new Date(now.getTime() - KEPT_MS)],
    );
    const rows = await this.sql.rows(
      `UPDATE marketplace.account_mail
          SET status = 'failed', body = NULL, last_error = 'expired before it could be sent'
        WHERE status = 'pending' AND created_at <= $1
       RETURNING id`,
      [deadline],
    );
    return rows.length;
  }

  /** When the earliest pending mail is due. */
  async nextDue(): Promise<Date | undefined> {
    const rows = await this.sql.rows<{ due: Date | null }>(
      `SELECT min(next_attempt_at) AS due FROM marketplace.account_mail WHERE status = 'pending'`,
      [],
    );
    return rows[0]?.due ?? undefined;
  }
}
