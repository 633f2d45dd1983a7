import { Injectable } from '@nestjs/common';

import type { MarketplaceTx } from '../persistence/marketplace-database';
import { MarketplaceRepository } from '../persistence/marketplace-repository';

export interface ManagedAppRow {
  readonly id: string;
  readonly name: string;
}

export interface ManagedEnvironmentRow {
  readonly appKey: string;
  readonly managedAppId: string;
  readonly name: string;
  readonly sealedAppSecret: string;
  readonly sealedMasterSecret: string;
}

interface EnvironmentRow {
  app_key: string;
  managed_app_id: string;
  environment_name: string;
  sealed_app_secret: string;
  sealed_master_secret: string;
}

function toEnvironment(row: EnvironmentRow): ManagedEnvironmentRow {
  return {
    appKey: row.app_key,
    managedAppId: row.managed_app_id,
    name: row.environment_name,
    sealedAppSecret: row.sealed_app_secret,
    sealedMasterSecret: row.sealed_master_secret,
  };
}

const ENVIRONMENTS = `SELECT e.app_key, e.managed_app_id, a.environment_name,
        e.sealed_app_secret, e.sealed_master_secret
   FROM marketplace.managed_environments e
   JOIN marketplace.apps a ON a.app_key = e.app_key`;

/** Kinvey applications and their environments (marketplace apps). */
@Injectable()
export class ManagedAppsRepository extends MarketplaceRepository {
  async insertApp(
    id: string,
    name: string,
    now: Date,
    tx: MarketplaceTx,
  ): Promise<void> {
    await tx.rows(
      'INSERT INTO marketplace.managed_apps (id, name, created_at) VALUES ($1, $2, $3)',
      [id, name, now],
    );
  }

  async listApps(): Promise<ManagedAppRow[]> {
    return this.sql.rows<ManagedAppRow>(
      'SELECT id, name FROM marketplace.managed_apps ORDER BY created_at, id',
    );
  }

  async findApp(
    id: string,
    tx: MarketplaceTx = this.sql,
  ): Promise<ManagedAppRow | undefined> {
    const rows = await tx.rows<ManagedAppRow>(
      'SELECT id, name FROM marketplace.managed_apps WHERE id = $1',
      [id],
    );
    return rows[0];
  }

  async renameApp(id: string, name: string): Promise<boolean> {
    const rows = await this.sql.rows(
      'UPDATE marketplace.managed_apps SET name = $2 WHERE id = $1 RETURNING 1',
      [id, name],
    );
    return rows.length === 1;
  }

  async countApps(tx: MarketplaceTx): Promise<number> {
    const rows = await tx.rows<{ n: number }>(
      'SELECT count(*)::int AS n FROM marketplace.managed_apps',
    );
    return rows[0]?.n ?? 0;
  }

  /** Locks the app's row until `tx` ends; false when there is none. */
  async lockApp(id: string, tx: MarketplaceTx): Promise<boolean> {
    const rows = await tx.rows(
      'SELECT 1 FROM marketplace.managed_apps WHERE id = $1 FOR UPDATE',
      [id],
    );
    return rows.length === 1;
  }

  async deleteApp(id: string, tx: MarketplaceTx): Promise<void> {
    await tx.rows('DELETE FROM marketplace.managed_apps WHERE id = $1', [id]);
  }

  async insertEnvironment(
    appKey: string,
    managedAppId: string,
    sealedAppSecret: string,
    sealedMasterSecret: string,
    now: Date,
    tx: MarketplaceTx,
  ): Promise<void> {
    await tx.rows(
      `INSERT INTO marketplace.managed_environments
         (app_key, managed_app_id, sealed_app_secret, sealed_master_secret, created_at)
       VALUES ($1, $2, $3, $4, $5)`,
      [appKey, managedAppId, sealedAppSecret, sealedMasterSecret, now],
    );
  }

  /** The environments of the given apps, oldest first. */
  async environmentsOf(
    managedAppIds: readonly string[],
    tx: MarketplaceTx = this.sql,
  ): Promise<ManagedEnvironmentRow[]> {
    const rows = await tx.rows<EnvironmentRow>(
      `${ENVIRONMENTS} WHERE e.managed_app_id = ANY($1::text[])
        ORDER BY e.created_at, e.app_key`,
      [managedAppIds],
    );
    return rows.map(toEnvironment);
  }

  async findEnvironment(
    appKey: string,
  ): Promise<ManagedEnvironmentRow | undefined> {
    const rows = await this.sql.rows<EnvironmentRow>(
      `${ENVIRONMENTS} WHERE e.app_key = $1`,
      [appKey],
    );
    return rows[0] ? toEnvironment(rows[0]) : undefined;
  }

  async deleteEnvironment(appKey: string, tx: MarketplaceTx): Promise<void> {
    await tx.rows(
      'DELETE FROM marketplace.managed_environments WHERE app_key = $1',
      [appKey],
    );
  }
}
