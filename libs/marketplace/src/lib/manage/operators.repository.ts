import { Injectable } from '@nestjs/common';

import { MarketplaceRepository } from '../persistence/marketplace-repository';

export interface StoredOperator {
  readonly id: string;
  readonly email: string;
  readonly passwordHash: string;
}

/** Operator accounts and their management sessions (digests only). */
@Injectable()
export class OperatorsRepository extends MarketplaceRepository {
  /** False when the address already has an account. */
  async insert(
    id: string,
    email: string,
    passwordHash: string,
    now: Date,
  ): Promise<boolean> {
    const rows = await this.sql.rows(
      `INSERT INTO marketplace.operators (id, email, password_hash, created_at)
       VALUES ($1, $2, $3, $4) ON CONFLICT (email) DO NOTHING RETURNING id`,
      [id, email, passwordHash, now],
    );
    return rows.length === 1;
  }

  async findByEmail(email: string): Promise<StoredOperator | undefined> {
    const rows = await this.sql.rows<{
      id: string;
      email: string;
      password_hash: string;
    }>(
      'SELECT id, email, password_hash FROM marketplace.operators WHERE email = $1',
      [email],
    );
    const row = rows[0];
    return row
      ? { id: row.id, email: row.email, passwordHash: row.password_hash }
      : undefined;
  }

  /**
   * Stores a session; the operator's expired ones and any beyond its
   * newest `keep` go, so sessions never pile up (logins that never log
   * out: a profile per machine, scripts).
   */
  async insertSession(
    digest: string,
    operatorId: string,
    expiresAt: Date,
    now: Date,
    keep: number,
  ): Promise<void> {
    await this.sql.rows(
      `INSERT INTO marketplace.operator_sessions (digest, operator_id, expires_at, created_at)
       VALUES ($1, $2, $3, $4)`,
      [digest, operatorId, expiresAt, now],
    );
    await this.sql.rows(
      `DELETE FROM marketplace.operator_sessions
        WHERE operator_id = $1
          AND (expires_at <= $2
               OR digest NOT IN (SELECT digest FROM marketplace.operator_sessions
                                  WHERE operator_id = $1
                                  ORDER BY created_at DESC, digest LIMIT $3))`,
      [operatorId, now, keep],
    );
  }

  /** The operator of an unexpired session. */
  async findBySession(
    digest: string,
    now: Date,
  ): Promise<{ id: string; email: string } | undefined> {
    const rows = await this.sql.rows<{ id: string; email: string }>(
      `SELECT o.id, o.email FROM marketplace.operator_sessions s
         JOIN marketplace.operators o ON o.id = s.operator_id
        WHERE s.digest = $1 AND s.expires_at > $2`,
      [digest, now],
    );
    return rows[0];
  }

  async deleteSession(digest: string): Promise<void> {
    await this.sql.rows(
      'DELETE FROM marketplace.operator_sessions WHERE digest = $1',
      [digest],
    );
  }

  /** Deletes the account and its sessions; false when there is none. */
  async remove(email: string): Promise<boolean> {
    const rows = await this.sql.rows<{ id: string }>(
      'DELETE FROM marketplace.operators WHERE email = $1 RETURNING id',
      [email],
    );
    const id = rows[0]?.id;
    if (!id) return false;
    await this.endSessions(id);
    return true;
  }

  private async endSessions(operatorId: string): Promise<void> {
    await this.sql.rows(
      'DELETE FROM marketplace.operator_sessions WHERE operator_id = $1',
      [operatorId],
    );
  }

  /** Sets the password and ends every session; false when there is none. */
  async setPassword(email: string, passwordHash: string): Promise<boolean> {
    const rows = await this.sql.rows<{ id: string }>(
      'UPDATE marketplace.operators SET password_hash = $2 WHERE email = $1 RETURNING id',
      [email, passwordHash],
    );
    const id = rows[0]?.id;
    if (!id) return false;
    await this.endSessions(id);
    return true;
  }
}
