import { Injectable } from '@nestjs/common';

import { ErrorTrackingRepository } from '../persistence/error-tracking-repository';
import type {
  AlertRules,
  ClaimedDelivery,
  WebhookAttemptRecord,
  WebhookRecord,
} from '../alerting/alert.types';

interface HookRow {
  id: number;
  project_id: number;
  url: string;
  token_ciphertext: string | null;
  error_tracking_events: boolean;
  enable_ssl_verification: boolean;
  created_at: Date;
}

const KEY_CHECK_SETTING = 'alerts_key_check';

const HOOK_COLUMNS =
  'id, project_id, url, token_ciphertext, error_tracking_events, enable_ssl_verification, created_at';

function toHook(row: HookRow): WebhookRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    url: row.url,
    hasToken: row.token_ciphertext !== null,
    errorTrackingEvents: row.error_tracking_events,
    enableSslVerification: row.enable_ssl_verification,
    createdAt: row.created_at,
  };
}

export interface HookChanges {
  readonly url?: string;
  /** Already sealed; null removes the token. */
  readonly tokenCiphertext?: string | null;
  readonly errorTrackingEvents?: boolean;
  readonly enableSslVerification?: boolean;
}

export type AttemptLog = Omit<WebhookAttemptRecord, 'id'>;

/** The outbox, deliveries, hooks, their log, rules and e-mail opt-outs. */
@Injectable()
export class AlertsRepository extends ErrorTrackingRepository {
  /** The alerts key's check value that is stored, if one is. */
  async keyCheckValue(): Promise<string | undefined> {
    const [row] = await this.sql.rows<{ value: string }>(
      `SELECT value FROM error_tracking.instance_settings WHERE name = $1`,
      [KEY_CHECK_SETTING],
    );
    return row?.value;
  }

  /** Stores `value` unless one is stored already; returns the stored one. */
  async recordKeyCheckValue(value: string): Promise<string> {
    await this.sql.rows(
      `INSERT INTO error_tracking.instance_settings (name, value) VALUES ($1, $2)
       ON CONFLICT (name) DO NOTHING`,
      [KEY_CHECK_SETTING, value],
    );
    return (await this.keyCheckValue()) ?? value;
  }

  /** One stored sealed token, if any (to test a key against). */
  async anySealedToken(): Promise<string | undefined> {
    const [row] = await this.sql.rows<{ token_ciphertext: string }>(
      `SELECT token_ciphertext FROM error_tracking.webhooks
        WHERE token_ciphertext IS NOT NULL LIMIT 1`,
    );
    return row?.token_ciphertext;
  }

  async rules(projectId: number): Promise<AlertRules | undefined> {
    const [row] = await this.sql.rows<{
      alert_frequent_threshold: number | null;
      alert_frequent_window_minutes: number;
    }>(
      `SELECT alert_frequent_threshold, alert_frequent_window_minutes
         FROM error_tracking.projects WHERE id = $1`,
      [projectId],
    );
    return row
      ? {
          frequentThreshold: row.alert_frequent_threshold,
          frequentWindowMinutes: row.alert_frequent_window_minutes,
        }
      : undefined;
  }

  async setRules(projectId: number, rules: AlertRules): Promise<void> {
    await this.sql.rows(
      `UPDATE error_tracking.projects
          SET alert_frequent_threshold = $2, alert_frequent_window_minutes = $3
        WHERE id = $1`,
      [projectId, rules.frequentThreshold, rules.frequentWindowMinutes],
    );
  }

  async listHooks(projectId: number): Promise<WebhookRecord[]> {
    const rows = await this.sql.rows<HookRow>(
      `SELECT ${HOOK_COLUMNS} FROM error_tracking.webhooks
        WHERE project_id = $1 ORDER BY id`,
      [projectId],
    );
    return rows.map(toHook);
  }

  async findHook(
    projectId: number,
    hookId: number,
  ): Promise<(WebhookRecord & { tokenCiphertext: string | null }) | undefined> {
    const [row] = await this.sql.rows<HookRow>(
      `SELECT ${HOOK_COLUMNS} FROM error_tracking.webhooks
        WHERE project_id = $1 AND id = $2`,
      [projectId, hookId],
    );
    return row
      ? { ...toHook(row), tokenCiphertext: row.token_ciphertext }
      : undefined;
  }

  async createHook(
    projectId: number,
    hook: Required<HookChanges> & { url: string },
    now: Date,
  ): Promise<WebhookRecord> {
    const [row] = await this.sql.rows<HookRow>(
      `INSERT INTO error_tracking.webhooks
              (project_id, url, token_ciphertext, error_tracking_events,
               enable_ssl_verification, created_at)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${HOOK_COLUMNS}`,
      [
        projectId,
        hook.url,
        hook.tokenCiphertext,
        hook.errorTrackingEvents,
        hook.enableSslVerification,
        now,
      ],
    );
    return toHook(row as HookRow);
  }

  async updateHook(
    projectId: number,
    hookId: number,
    changes: HookChanges,
  ): Promise<WebhookRecord | undefined> {
    // A token given is stored; else a new URL drops the old one (GitLab's
    // rule), so whoever moves a hook cannot send someone else's secret to
    // a receiver of their choosing. Decided in the statement: a concurrent
    // update cannot slip between a check and the write.
    const [row] = await this.sql.rows<HookRow>(
      `UPDATE error_tracking.webhooks SET
              url = coalesce($3, url),
              token_ciphertext = CASE WHEN $4 THEN $5
                                      WHEN $3::text <> url THEN NULL
                                      ELSE token_ciphertext END,
              error_tracking_events = coalesce($6, error_tracking_events),
              enable_ssl_verification = coalesce($7, enable_ssl_verification)
        WHERE project_id = $1 AND id = $2 RETURNING ${HOOK_COLUMNS}`,
      [
        projectId,
        hookId,
        changes.url ?? null,
        changes.tokenCiphertext !== undefined,
        changes.tokenCiphertext ?? null,
        changes.errorTrackingEvents ?? null,
        changes.enableSslVerification ?? null,
      ],
    );
    return row ? toHook(row) : undefined;
  }

  /** Deletes the hook, its pending deliveries and its log. */
  async deleteHook(
    projectId: number,
    hookId: number,
  ): Promise<WebhookRecord | undefined> {
    return this.sql.transaction(async (tx) => {
      const [row] = await tx.rows<HookRow>(
        `DELETE FROM error_tracking.webhooks WHERE project_id = $1 AND id = $2
         RETURNING ${HOOK_COLUMNS}`,
        [projectId, hookId],
      );
      if (!row) return undefined;
      await tx.rows(
        `DELETE FROM error_tracking.alert_deliveries WHERE hook_id = $1`,
        [hookId],
      );
      await tx.rows(
        `DELETE FROM error_tracking.webhook_attempts WHERE hook_id = $1`,
        [hookId],
      );
      return toHook(row);
    });
  }

  async listAttempts(
    hookId: number,
    limit: number,
    offset = 0,
  ): Promise<{ attempts: WebhookAttemptRecord[]; total: number }> {
    const rows = await this.sql.rows<{
      id: string;
      hook_id: number;
      event_uuid: string;
      trigger: string;
      attempt: number;
      response_status: number | null;
      execution_duration: number;
      error: string | null;
      created_at: Date;
      total: string;
    }>(
      `SELECT *, count(*) OVER () AS total FROM error_tracking.webhook_attempts
        WHERE hook_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`,
      [hookId, limit, offset],
    );
    let total = Number(rows[0]?.total ?? 0);
    if (rows.length === 0 && offset > 0) {
      const [count] = await this.sql.rows<{ n: string }>(
        'SELECT count(*) AS n FROM error_tracking.webhook_attempts WHERE hook_id = $1',
        [hookId],
      );
      total = Number(count?.n ?? 0);
    }
    return {
      attempts: rows.map((row) => ({
        id: row.id,
        hookId: row.hook_id,
        eventUuid: row.event_uuid,
        trigger: row.trigger,
        attempt: row.attempt,
        responseStatus: row.response_status,
        executionDuration: row.execution_duration,
        error: row.error,
        createdAt: row.created_at,
      })),
      total,
    };
  }

  async logAttempt(log: AttemptLog): Promise<void> {
    await this.sql.rows(
      `INSERT INTO error_tracking.webhook_attempts
              (hook_id, event_uuid, trigger, attempt, response_status,
               execution_duration, error, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        log.hookId,
        log.eventUuid,
        log.trigger,
        log.attempt,
        log.responseStatus,
        log.executionDuration,
        log.error,
        log.createdAt,
      ],
    );
  }

  async isOptedOut(projectId: number, userId: number): Promise<boolean> {
    const rows = await this.sql.rows(
      `SELECT 1 FROM error_tracking.alert_email_opt_outs
        WHERE project_id = $1 AND user_id = $2`,
      [projectId, userId],
    );
    return rows.length > 0;
  }

  async setOptOut(
    projectId: number,
    userId: number,
    optedOut: boolean,
    now: Date,
  ): Promise<void> {
    if (optedOut)
      await this.sql.rows(
        `INSERT INTO error_tracking.alert_email_opt_outs (project_id, user_id, created_at)
         VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
        [projectId, userId, now],
      );
    else
      await this.sql.rows(
        `DELETE FROM error_tracking.alert_email_opt_outs
          WHERE project_id = $1 AND user_id = $2`,
        [projectId, userId],
      );
  }

  /**
   * Turns up to `limit` recorded alerts into deliveries: one per hook of
   * the project that takes error-tracking events, and (with e-mail on) one
   * per active member with developer access or more who has not opted out.
   * One statement; `SKIP LOCKED` lets replicas share the work.
   */
  async fanOut(
    now: Date,
    { email, limit }: { readonly email: boolean; readonly limit: number },
  ): Promise<number> {
    const [row] = await this.sql.rows<{ n: number }>(
      `WITH claimed AS (
         SELECT id, project_id, trigger FROM error_tracking.alerts
          WHERE fanned_out_at IS NULL ORDER BY id LIMIT $3
            FOR UPDATE SKIP LOCKED
       ),
       hooks AS (
         INSERT INTO error_tracking.alert_deliveries
                (alert_id, project_id, channel, hook_id, event_uuid, trigger,
                 next_attempt_at, created_at, updated_at)
         SELECT c.id, c.project_id, 'webhook', h.id, gen_random_uuid(), c.trigger, $1, $1, $1
           FROM claimed c
           JOIN error_tracking.webhooks h
             ON h.project_id = c.project_id AND h.error_tracking_events
       ),
       mails AS (
         INSERT INTO error_tracking.alert_deliveries
                (alert_id, project_id, channel, user_id, event_uuid, trigger,
                 next_attempt_at, created_at, updated_at)
         SELECT c.id, c.project_id, 'email', m.user_id, gen_random_uuid(), c.trigger, $1, $1, $1
           FROM claimed c
           JOIN error_tracking.project_members m
             ON m.project_id = c.project_id AND m.access_level >= 30
           JOIN error_tracking.users u ON u.id = m.user_id AND u.state = 'active'
          WHERE $2
            AND NOT EXISTS (SELECT 1 FROM error_tracking.alert_email_opt_outs o
                             WHERE o.project_id = c.project_id AND o.user_id = m.user_id)
       ),
       done AS (
         UPDATE error_tracking.alerts SET fanned_out_at = $1
          WHERE id IN (SELECT id FROM claimed) RETURNING 1
       )
       SELECT count(*)::int AS n FROM done`,
      [now, email, limit],
    );
    return row?.n ?? 0;
  }

  /**
   * Claims up to `limit` due deliveries for `leaseMs` (their next attempt
   * moves past the lease, so a worker that dies mid-delivery hands them on)
   * and counts the attempt.
   */
  async claimDue(
    now: Date,
    leaseMs: number,
    limit: number,
  ): Promise<ClaimedDelivery[]> {
    const rows = await this.sql.rows<{
      id: string;
      project_id: number;
      channel: 'webhook' | 'email';
      hook_id: number | null;
      user_id: number | null;
      event_uuid: string;
      trigger: ClaimedDelivery['trigger'];
      attempts: number;
      error_id: string | null;
      event_id: string | null;
    }>(
      `WITH due AS (
         SELECT id FROM error_tracking.alert_deliveries
          WHERE status = 'pending' AND next_attempt_at <= $1
          ORDER BY next_attempt_at LIMIT $3
            FOR UPDATE SKIP LOCKED
       ),
       claimed AS (
         UPDATE error_tracking.alert_deliveries d
            SET next_attempt_at = $1::timestamptz + make_interval(secs => $2::double precision / 1000),
                attempts = d.attempts + 1, updated_at = $1
          WHERE d.id IN (SELECT id FROM due)
         RETURNING d.*
       )
       SELECT c.id, c.project_id, c.channel, c.hook_id, c.user_id, c.event_uuid,
              c.trigger, c.attempts, a.error_id,
              replace(a.event_id::text, '-', '') AS event_id
         FROM claimed c LEFT JOIN error_tracking.alerts a ON a.id = c.alert_id
        ORDER BY c.id`,
      [now, leaseMs, limit],
    );
    return rows.map((row) => ({
      id: row.id,
      projectId: row.project_id,
      channel: row.channel,
      hookId: row.hook_id,
      userId: row.user_id,
      eventUuid: row.event_uuid,
      trigger: row.trigger,
      attempt: row.attempts,
      errorId: row.error_id,
      eventId: row.event_id,
    }));
  }

  /**
   * Records an attempt's outcome: delivered, failed for good, or due again
   * at `retryAt`. Only while the claim is this attempt's (a claim whose
   * lease ran out and was taken over is left to the new owner).
   */
  async settle(
    delivery: ClaimedDelivery,
    now: Date,
    outcome:
      | { status: 'delivered' }
      | { status: 'failed'; error: string }
      | { status: 'pending'; error: string; retryAt: Date },
  ): Promise<void> {
    await this.sql.rows(
      `UPDATE error_tracking.alert_deliveries
          SET status = $3, last_error = $4, updated_at = $5,
              next_attempt_at = coalesce($6, next_attempt_at)
        WHERE id = $1 AND attempts = $2 AND status = 'pending'`,
      [
        delivery.id,
        delivery.attempt,
        outcome.status,
        outcome.status === 'delivered' ? null : outcome.error,
        now,
        outcome.status === 'pending' ? outcome.retryAt : null,
      ],
    );
  }

  /** The earliest pending delivery's due time (to wake up for it). */
  async nextDue(): Promise<Date | undefined> {
    const [row] = await this.sql.rows<{ at: Date | null }>(
      `SELECT min(next_attempt_at) AS at FROM error_tracking.alert_deliveries
        WHERE status = 'pending'`,
    );
    return row?.at ?? undefined;
  }
}
