import { Injectable } from '@nestjs/common';

import { ErrorTrackingRepository } from '../persistence/error-tracking-repository';

export interface CollectorKey {
  readonly keyId: number;
  readonly projectId: number;
  readonly trackingActive: boolean;
}

/** The collector's view of client keys: which project a public key feeds. */
@Injectable()
export class CollectorKeysRepository extends ErrorTrackingRepository {
  /** The active key with that public key, or null. */
  async findActive(publicKey: string): Promise<CollectorKey | null> {
    const rows = await this.sql.rows<{
      key_id: number;
      project_id: number;
      tracking_active: boolean;
    }>(
      `SELECT k.id AS key_id, k.project_id, p.tracking_active
         FROM error_tracking.client_keys k
         JOIN error_tracking.projects p ON p.id = k.project_id
        WHERE k.public_key = $1 AND k.active`,
      [publicKey],
    );
    const row = rows[0];
    return row
      ? {
          keyId: row.key_id,
          projectId: row.project_id,
          trackingActive: row.tracking_active,
        }
      : null;
  }
}
