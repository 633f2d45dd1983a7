import { randomBytes } from 'node:crypto';

import { Injectable } from '@nestjs/common';

import type { Transaction } from '../persistence/error-tracking.database';
import { ErrorTrackingRepository } from '../persistence/error-tracking-repository';

export interface ClientKeyRecord {
  readonly id: number;
  readonly projectId: number;
  readonly publicKey: string;
  readonly active: boolean;
}

interface KeyRow {
  id: number;
  project_id: number;
  public_key: string;
  active: boolean;
}

function toKey(row: KeyRow): ClientKeyRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    publicKey: row.public_key,
    active: row.active,
  };
}

/** `glet_` + 32 lowercase hex (16 random bytes), as GitLab generates them. */
export function newPublicKey(): string {
  return `glet_${randomBytes(16).toString('hex')}`;
}

const COLUMNS = 'id, project_id, public_key, active';

@Injectable()
export class ClientKeysRepository extends ErrorTrackingRepository {
  async list(
    projectId: number,
    limit: number,
    offset: number,
  ): Promise<{ keys: ClientKeyRecord[]; total: number }> {
    const rows = await this.sql.rows<KeyRow & { total: number }>(
      `SELECT ${COLUMNS}, count(*) OVER ()::int AS total
         FROM error_tracking.client_keys WHERE project_id = $1
        ORDER BY id LIMIT $2 OFFSET $3`,
      [projectId, limit, offset],
    );
    let total = rows[0]?.total ?? 0;
    if (rows.length === 0 && offset > 0) {
      const counted = await this.sql.rows<{ n: number }>(
        'SELECT count(*)::int AS n FROM error_tracking.client_keys WHERE project_id = $1',
        [projectId],
      );
      total = counted[0]?.n ?? 0;
    }
    return { keys: rows.map(toKey), total };
  }

  /** The project's first active key, for the settings page's DSN. */
  async firstActive(
    projectId: number,
    tx: Transaction = this.sql,
  ): Promise<ClientKeyRecord | undefined> {
    const rows = await tx.rows<KeyRow>(
      `SELECT ${COLUMNS} FROM error_tracking.client_keys
        WHERE project_id = $1 AND active ORDER BY id LIMIT 1`,
      [projectId],
    );
    return rows[0] ? toKey(rows[0]) : undefined;
  }

  async create(
    projectId: number,
    now: Date,
    tx: Transaction = this.sql,
  ): Promise<ClientKeyRecord> {
    const rows = await tx.rows<KeyRow>(
      `INSERT INTO error_tracking.client_keys (project_id, public_key, created_at)
       VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
      [projectId, newPublicKey(), now],
    );
    return toKey(rows[0] as KeyRow);
  }

  async delete(
    projectId: number,
    keyId: number,
  ): Promise<ClientKeyRecord | undefined> {
    const rows = await this.sql.rows<KeyRow>(
      `DELETE FROM error_tracking.client_keys WHERE project_id = $1 AND id = $2
       RETURNING ${COLUMNS}`,
      [projectId, keyId],
    );
    return rows[0] ? toKey(rows[0]) : undefined;
  }
}
