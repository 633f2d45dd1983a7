import { Injectable } from '@nestjs/common';

import type { MarketplaceTx } from '../persistence/marketplace-database';
import { MarketplaceRepository } from '../persistence/marketplace-repository';

export interface ServiceRow {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  /** The owning application; null for the organization's services. */
  readonly managedAppId: string | null;
}

export interface ServiceEnvironmentRow {
  readonly id: string;
  readonly serviceId: string;
  readonly name: string;
  readonly host: string;
  readonly sealedSecret: string;
  readonly description: string | null;
}

const SERVICE = `SELECT id, name, description, managed_app_id AS "managedAppId"
   FROM marketplace.managed_services`;
const SERVICE_ENVIRONMENT = `SELECT id, service_id AS "serviceId", name, host,
        sealed_secret AS "sealedSecret", description
   FROM marketplace.managed_service_environments`;

/** External Flex services and their environments. */
@Injectable()
export class ManagedServicesRepository extends MarketplaceRepository {
  async insert(
    service: ServiceRow,
    now: Date,
    tx: MarketplaceTx,
  ): Promise<void> {
    await tx.rows(
      `INSERT INTO marketplace.managed_services (id, name, description, managed_app_id, created_at)
       VALUES ($1, $2, $3, $4, $5)`,
      [
        service.id,
        service.name,
        service.description,
        service.managedAppId,
        now,
      ],
    );
  }

  async update(
    id: string,
    name: string,
    description: string | null,
  ): Promise<boolean> {
    const rows = await this.sql.rows(
      'UPDATE marketplace.managed_services SET name = $2, description = $3 WHERE id = $1 RETURNING 1',
      [id, name, description],
    );
    return rows.length === 1;
  }

  async count(tx: MarketplaceTx): Promise<number> {
    const rows = await tx.rows<{ n: number }>(
      'SELECT count(*)::int AS n FROM marketplace.managed_services',
    );
    return rows[0]?.n ?? 0;
  }

  async find(id: string): Promise<ServiceRow | undefined> {
    const rows = await this.sql.rows<ServiceRow>(`${SERVICE} WHERE id = $1`, [
      id,
    ]);
    return rows[0];
  }

  /** The organization's services and, when given, an application's. */
  async visibleTo(managedAppId: string | undefined): Promise<ServiceRow[]> {
    return this.sql.rows<ServiceRow>(
      `${SERVICE} WHERE managed_app_id IS NULL OR managed_app_id = $1
        ORDER BY created_at, id`,
      [managedAppId ?? null],
    );
  }

  async environmentsOf(
    serviceIds: readonly string[],
    tx: MarketplaceTx = this.sql,
  ): Promise<ServiceEnvironmentRow[]> {
    return tx.rows<ServiceEnvironmentRow>(
      `${SERVICE_ENVIRONMENT} WHERE service_id = ANY($1::text[])
        ORDER BY created_at, id`,
      [serviceIds],
    );
  }

  async findEnvironment(
    id: string,
  ): Promise<ServiceEnvironmentRow | undefined> {
    const rows = await this.sql.rows<ServiceEnvironmentRow>(
      `${SERVICE_ENVIRONMENT} WHERE id = $1`,
      [id],
    );
    return rows[0];
  }

  async insertEnvironment(
    env: ServiceEnvironmentRow,
    now: Date,
    tx: MarketplaceTx,
  ): Promise<void> {
    await tx.rows(
      `INSERT INTO marketplace.managed_service_environments
         (id, service_id, name, host, sealed_secret, description, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        env.id,
        env.serviceId,
        env.name,
        env.host,
        env.sealedSecret,
        env.description,
        now,
      ],
    );
  }

  async updateEnvironment(env: ServiceEnvironmentRow): Promise<boolean> {
    const rows = await this.sql.rows(
      `UPDATE marketplace.managed_service_environments
          SET name = $3, host = $4, sealed_secret = $5, description = $6
        WHERE id = $1 AND service_id = $2 RETURNING 1`,
      [
        env.id,
        env.serviceId,
        env.name,
        env.host,
        env.sealedSecret,
        env.description,
      ],
    );
    return rows.length === 1;
  }

  /**
   * Deletes an application's services with their environments (the apps
   * that bound them are its environments, deleted with their bindings).
   */
  async deleteOwnedBy(managedAppId: string, tx: MarketplaceTx): Promise<void> {
    await tx.rows(
      `DELETE FROM marketplace.managed_service_environments
        WHERE service_id IN (SELECT id FROM marketplace.managed_services WHERE managed_app_id = $1)`,
      [managedAppId],
    );
    await tx.rows(
      'DELETE FROM marketplace.managed_services WHERE managed_app_id = $1',
      [managedAppId],
    );
  }
}
