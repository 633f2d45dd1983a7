import { Injectable } from '@nestjs/common';

import type { MarketplaceTx } from '../persistence/marketplace-database';
import { MarketplaceRepository } from '../persistence/marketplace-repository';

export interface EndpointRow {
  readonly name: string;
  readonly serviceEnvironmentId: string;
  readonly handlerName: string;
}

export interface HookRow extends EndpointRow {
  readonly collection: string;
}

/** Where an app's custom endpoints and collection hooks are handled. */
@Injectable()
export class ManagedBusinessLogicRepository extends MarketplaceRepository {
  async endpoints(
    appKey: string,
    tx: MarketplaceTx = this.sql,
  ): Promise<EndpointRow[]> {
    return tx.rows<EndpointRow>(
      `SELECT name, service_environment_id AS "serviceEnvironmentId", handler_name AS "handlerName"
         FROM marketplace.managed_endpoints WHERE app_key = $1 ORDER BY name`,
      [appKey],
    );
  }

  /** False when the app already has an endpoint of this name. */
  async insertEndpoint(
    appKey: string,
    row: EndpointRow,
    tx: MarketplaceTx,
  ): Promise<boolean> {
    const rows = await tx.rows(
      `INSERT INTO marketplace.managed_endpoints (app_key, name, service_environment_id, handler_name)
       VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING 1`,
      [appKey, row.name, row.serviceEnvironmentId, row.handlerName],
    );
    return rows.length === 1;
  }

  async updateEndpoint(appKey: string, row: EndpointRow): Promise<boolean> {
    const rows = await this.sql.rows(
      `UPDATE marketplace.managed_endpoints SET service_environment_id = $3, handler_name = $4
        WHERE app_key = $1 AND name = $2 RETURNING 1`,
      [appKey, row.name, row.serviceEnvironmentId, row.handlerName],
    );
    return rows.length === 1;
  }

  async deleteEndpoint(appKey: string, name: string): Promise<boolean> {
    const rows = await this.sql.rows(
      'DELETE FROM marketplace.managed_endpoints WHERE app_key = $1 AND name = $2 RETURNING 1',
      [appKey, name],
    );
    return rows.length === 1;
  }

  async hooks(appKey: string): Promise<HookRow[]> {
    return this.sql.rows<HookRow>(
      `SELECT collection, hook AS name, service_environment_id AS "serviceEnvironmentId",
              handler_name AS "handlerName"
         FROM marketplace.managed_collection_hooks WHERE app_key = $1 ORDER BY collection, hook`,
      [appKey],
    );
  }

  async putHook(appKey: string, row: HookRow): Promise<void> {
    await this.sql.rows(
      `INSERT INTO marketplace.managed_collection_hooks
         (app_key, collection, hook, service_environment_id, handler_name)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (app_key, collection, hook)
       DO UPDATE SET service_environment_id = EXCLUDED.service_environment_id,
                     handler_name = EXCLUDED.handler_name`,
      [
        appKey,
        row.collection,
        row.name,
        row.serviceEnvironmentId,
        row.handlerName,
      ],
    );
  }
}
