import { Injectable } from '@nestjs/common';

import type { MarketplaceTx } from '../persistence/marketplace-database';
import { MarketplaceRepository } from '../persistence/marketplace-repository';

export type BindingKind = 'endpoint' | 'hook' | 'data';

export interface FlexServiceRow {
  readonly name: string;
  readonly url: string;
  readonly sealed_secret: string;
  readonly sealed_callback_key: string;
  readonly timeout_ms: number;
}

export interface BindingRow {
  readonly kind: BindingKind;
  readonly target: string;
  readonly hook: string;
  readonly service: string;
  readonly handler: string;
}

/** An app's Flex services and what is bound to their functions. */
@Injectable()
export class BusinessLogicRepository extends MarketplaceRepository {
  services(
    appKey: string,
    tx: MarketplaceTx = this.sql,
  ): Promise<FlexServiceRow[]> {
    return tx.rows<FlexServiceRow>(
      `SELECT name, url, sealed_secret, sealed_callback_key, timeout_ms
         FROM marketplace.flex_services WHERE app_key = $1 ORDER BY name`,
      [appKey],
    );
  }

  bindings(
    appKey: string,
    tx: MarketplaceTx = this.sql,
  ): Promise<BindingRow[]> {
    return tx.rows<BindingRow>(
      `SELECT kind, target, hook, service, handler
         FROM marketplace.business_logic_bindings WHERE app_key = $1
        ORDER BY kind, target, hook`,
      [appKey],
    );
  }

  /** The apps that have a service of this name. */
  async appsWithService(name: string): Promise<string[]> {
    const rows = await this.sql.rows<{ app_key: string }>(
      'SELECT app_key FROM marketplace.flex_services WHERE name = $1 ORDER BY app_key',
      [name],
    );
    return rows.map((row) => row.app_key);
  }

  async upsertService(
    appKey: string,
    row: FlexServiceRow,
    now: Date,
    tx: MarketplaceTx,
  ): Promise<void> {
    await tx.rows(
      `INSERT INTO marketplace.flex_services
         (app_key, name, url, sealed_secret, sealed_callback_key, timeout_ms, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (app_key, name) DO UPDATE SET url = EXCLUDED.url,
         sealed_secret = EXCLUDED.sealed_secret, timeout_ms = EXCLUDED.timeout_ms,
         updated_at = EXCLUDED.updated_at`,
      [
        appKey,
        row.name,
        row.url,
        row.sealed_secret,
        row.sealed_callback_key,
        row.timeout_ms,
        now,
      ],
    );
  }

  /** Removes a service and everything bound to it; whether it existed. */
  async deleteService(
    appKey: string,
    name: string,
    tx: MarketplaceTx,
  ): Promise<boolean> {
    await tx.rows(
      'DELETE FROM marketplace.business_logic_bindings WHERE app_key = $1 AND service = $2',
      [appKey, name],
    );
    const rows = await tx.rows(
      'DELETE FROM marketplace.flex_services WHERE app_key = $1 AND name = $2 RETURNING 1',
      [appKey, name],
    );
    return rows.length === 1;
  }

  async upsertBinding(
    appKey: string,
    binding: BindingRow,
    tx: MarketplaceTx,
  ): Promise<void> {
    await tx.rows(
      `INSERT INTO marketplace.business_logic_bindings (app_key, kind, target, hook, service, handler)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (app_key, kind, target, hook) DO UPDATE
         SET service = EXCLUDED.service, handler = EXCLUDED.handler`,
      [
        appKey,
        binding.kind,
        binding.target,
        binding.hook,
        binding.service,
        binding.handler,
      ],
    );
  }

  async deleteBinding(
    appKey: string,
    kind: BindingKind,
    target: string,
    hook: string,
    tx: MarketplaceTx,
  ): Promise<boolean> {
    const rows = await tx.rows(
      `DELETE FROM marketplace.business_logic_bindings
        WHERE app_key = $1 AND kind = $2 AND target = $3 AND hook = $4 RETURNING 1`,
      [appKey, kind, target, hook],
    );
    return rows.length === 1;
  }

  async countBindings(appKey: string, tx: MarketplaceTx): Promise<number> {
    const rows = await tx.rows<{ n: number }>(
      'SELECT count(*)::int AS n FROM marketplace.business_logic_bindings WHERE app_key = $1',
      [appKey],
    );
    return rows[0]?.n ?? 0;
  }
}
