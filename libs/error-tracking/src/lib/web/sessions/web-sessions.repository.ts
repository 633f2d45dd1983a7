import { Injectable } from '@nestjs/common';

import { SqlRepository } from '../../persistence/sql-repository';

/** Sessions of the web UI and the per-username sign-in throttle. */
@Injectable()
export class WebSessionsRepository extends SqlRepository {
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

  /** When the next attempt for this username may be checked (null: now). */
  async blockedUntil(username: string): Promise<Date | null> {
    const rows = await this.sql.rows<{ blocked_until: Date }>(
      'SELECT blocked_until FROM error_tracking.sign_in_throttles WHERE username = $1',
      [username],
    );
    return rows[0]?.blocked_until ?? null;
  }

  /**
   * Counts a failure (the count restarts after `resetAfterMs` without one)
   * and blocks the username for `delayMs(failures)`; returns the count.
   */
  async recordFailure(
    username: string,
    now: Date,
    resetAfterMs: number,
    delayMs: (failures: number) => number,
  ): Promise<number> {
    const rows = await this.sql.rows<{ failures: number }>(
      `INSERT INTO error_tracking.sign_in_throttles AS t (username, failures, last_failure_at, blocked_until)
       VALUES ($1, 1, $2, $2)
       ON CONFLICT (username) DO UPDATE SET
         failures = CASE WHEN t.last_failure_at < $3 THEN 1 ELSE t.failures + 1 END,
         last_failure_at = $2
       RETURNING failures`,
      [username, now, new Date(now.getTime() - resetAfterMs)],
    );
    const failures = rows[0]?.failures ?? 1;
    await this.sql.rows(
      'UPDATE error_tracking.sign_in_throttles SET blocked_until = $2 WHERE username = $1',
      [username, new Date(now.getTime() + delayMs(failures))],
    );
    return failures;
  }

  async clearFailures(username: string): Promise<void> {
    await this.sql.rows(
      'DELETE FROM error_tracking.sign_in_throttles WHERE username = $1',
      [username],
    );
  }
}
