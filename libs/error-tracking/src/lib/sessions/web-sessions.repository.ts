import { Injectable } from '@nestjs/common';

import { ErrorTrackingRepository } from '../persistence/error-tracking-repository';

/** Sessions of the web UI and the per-username sign-in throttle. */
@Injectable()
export class WebSessionsRepository extends ErrorTrackingRepository {
  async insert(
    idDigest: string,
    userId: number,
    now: Date,
    expiresAt: Date,
  ): Promise<void> {
    await this.sql.rows(
      `INSERT INTO error_tracking.web_sessions (id_digest, user_id, created_at, expires_at)
       VALUES ($1, $2, $3, $4)`,
      [idDigest, userId, now, expiresAt],
    );
  }

  /** The live session's user id (expired sessions are not found). */
  async findUserId(idDigest: string, now: Date): Promise<number | undefined> {
    const rows = await this.sql.rows<{ user_id: number }>(
      `SELECT user_id FROM error_tracking.web_sessions
        WHERE id_digest = $1 AND expires_at > $2`,
      [idDigest, now],
    );
    return rows[0]?.user_id;
  }

  async delete(idDigest: string): Promise<void> {
    await this.sql.rows(
      'DELETE FROM error_tracking.web_sessions WHERE id_digest = $1',
      [idDigest],
    );
  }

  async deleteExpired(now: Date): Promise<void> {
    await this.sql.rows(
      'DELETE FROM error_tracking.web_sessions WHERE expires_at <= $1',
      [now],
    );
  }

  /**
   * Counts a sign-in attempt before its password is checked, unless the
   * username is blocked: returns the attempts counted (restarting after
   * `resetAfterMs` without one), this one included, having blocked the name
   * for `delaysMs[attempts - 1]` (the last entry beyond the list), or when
   * the block ends. One statement, so however many attempts race, across
   * replicas too, none is checked while an earlier one blocks the name.
   */
  async countAttempt(
    username: string,
    now: Date,
    resetAfterMs: number,
    delaysMs: readonly number[],
  ): Promise<{ failures: number } | { blockedUntil: Date }> {
    const rows = await this.sql.rows<{ failures: number }>(
      `INSERT INTO error_tracking.sign_in_throttles AS t (username, failures, last_failure_at, blocked_until)
       VALUES ($1, 1, $2, $2::timestamptz + make_interval(secs => ($4::bigint[])[1] / 1000.0))
       ON CONFLICT (username) DO UPDATE SET
         failures = CASE WHEN t.last_failure_at < $3 THEN 1 ELSE t.failures + 1 END,
         last_failure_at = $2,
         blocked_until = $2::timestamptz + make_interval(secs => ($4::bigint[])[least(
           CASE WHEN t.last_failure_at < $3 THEN 1 ELSE t.failures + 1 END,
           cardinality($4::bigint[]))] / 1000.0)
       WHERE t.blocked_until <= $2
       RETURNING failures`,
      [username, now, new Date(now.getTime() - resetAfterMs), delaysMs],
    );
    if (rows[0]) return { failures: rows[0].failures };
    const blocked = await this.sql.rows<{ blocked_until: Date }>(
      'SELECT blocked_until FROM error_tracking.sign_in_throttles WHERE username = $1',
      [username],
    );
    return { blockedUntil: blocked[0]?.blocked_until ?? now };
  }

  /** Forgets the username's attempts (a successful sign-in). */
  async clearFailures(username: string): Promise<void> {
    await this.sql.rows(
      'DELETE FROM error_tracking.sign_in_throttles WHERE username = $1',
      [username],
    );
  }
}
