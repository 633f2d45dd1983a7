import { Injectable } from '@nestjs/common';
import { isUniqueViolation } from '@quitanda/database';

import { MarketplaceError } from '../marketplace.errors';
import { MarketplaceDatabase } from '../persistence/marketplace-database';
import type { MarketplaceTx } from '../persistence/marketplace-database';
import type {
  CollectionSettings,
  UniqueField,
} from '../collections/collection-settings';

export interface CollectionRow {
  readonly name: string;
  readonly settings: CollectionSettings;
  readonly updated_at: Date;
}

/** `unique_name` of every record as the unique setting folds it, in SQL. */
function uniqueKeySql(unique: UniqueField): string {
  let value = 'doc #>> $3::text[]';
  if (unique.fold?.includes('trim')) value = `btrim(${value})`;
  if (unique.fold?.includes('case')) value = `lower(${value})`;
  return value;
}

/** The collections each app declared, and their settings. */
@Injectable()
export class CollectionsRepository {
  constructor(private readonly db: MarketplaceDatabase) {}

  async list(
    appKey: string,
    tx: MarketplaceTx = this.db.primary,
  ): Promise<CollectionRow[]> {
    return tx.rows<CollectionRow>(
      'SELECT name, settings, updated_at FROM marketplace.collections WHERE app_key = $1 ORDER BY name',
      [appKey],
    );
  }

  /** Declares a collection unless it exists; whether it was declared now. */
  async insert(
    appKey: string,
    name: string,
    settings: CollectionSettings,
    now: Date,
    tx: MarketplaceTx = this.db.primary,
  ): Promise<boolean> {
    const rows = await tx.rows(
      `INSERT INTO marketplace.collections (app_key, name, settings, created_at, updated_at)
       VALUES ($1, $2, $3::jsonb, $4, $4) ON CONFLICT (app_key, name) DO NOTHING RETURNING 1`,
      [appKey, name, settings, now],
    );
    return rows.length === 1;
  }

  /** How many collections the app declared. */
  async count(appKey: string, tx: MarketplaceTx): Promise<number> {
    const rows = await tx.rows<{ n: number }>(
      'SELECT count(*)::int AS n FROM marketplace.collections WHERE app_key = $1',
      [appKey],
    );
    return rows[0]?.n ?? 0;
  }

  /** Serialises changes of one app's collections (limits, unique keys). */
  async lockApp(appKey: string, tx: MarketplaceTx): Promise<void> {
    await tx.rows('SELECT pg_advisory_xact_lock(hashtext($1))', [
      `marketplace.collections:${appKey}`,
    ]);
  }

  /**
   * Sets a collection's settings and recomputes its records' unique keys;
   * false when it is not declared. Records that already break the new
   * unique rule make it fail with DuplicateEntity, and nothing changes.
   */
  async update(
    appKey: string,
    name: string,
    settings: CollectionSettings,
    now: Date,
    tx: MarketplaceTx,
  ): Promise<boolean> {
    const rows = await tx.rows(
      `UPDATE marketplace.collections SET settings = $3::jsonb, updated_at = $4
        WHERE app_key = $1 AND name = $2 RETURNING 1`,
      [appKey, name, settings, now],
    );
    if (rows.length === 0) return false;
    await this.rekey(appKey, name, settings.unique?.[0], tx);
    return true;
  }

  /** Same as `update` for a definition's collections, declared when new. */
  async upsert(
    appKey: string,
    name: string,
    settings: CollectionSettings,
    now: Date,
    tx: MarketplaceTx,
  ): Promise<void> {
    await tx.rows(
      `INSERT INTO marketplace.collections (app_key, name, settings, created_at, updated_at)
       VALUES ($1, $2, $3::jsonb, $4, $4)
       ON CONFLICT (app_key, name) DO UPDATE SET settings = EXCLUDED.settings, updated_at = EXCLUDED.updated_at`,
      [appKey, name, settings, now],
    );
    await this.rekey(appKey, name, settings.unique?.[0], tx);
  }

  private async rekey(
    appKey: string,
    name: string,
    unique: UniqueField | undefined,
    tx: MarketplaceTx,
  ): Promise<void> {
    if (!unique) {
      await tx.rows(
        `UPDATE marketplace.records SET unique_name = NULL
          WHERE app_key = $1 AND collection = $2 AND unique_name IS NOT NULL`,
        [appKey, name],
      );
      return;
    }
    try {
      await tx.rows(
        `UPDATE marketplace.records SET unique_name = ${uniqueKeySql(unique)}
          WHERE app_key = $1 AND collection = $2
            AND unique_name IS DISTINCT FROM ${uniqueKeySql(unique)}`,
        [appKey, name, unique.field.split('.')],
      );
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw MarketplaceError.badRequest(
        'Records of the collection already repeat a value of the unique field; nothing changed.',
        `unique: ${unique.field}`,
      );
    }
  }

  /** Deletes a collection and its records: how many, or undefined when it was not declared. */
  async remove(
    appKey: string,
    name: string,
    tx: MarketplaceTx,
  ): Promise<number | undefined> {
    const rows = await tx.rows(
      'DELETE FROM marketplace.collections WHERE app_key = $1 AND name = $2 RETURNING 1',
      [appKey, name],
    );
    const records = await tx.rows<{ n: number }>(
      `WITH gone AS (DELETE FROM marketplace.records WHERE app_key = $1 AND collection = $2 RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [appKey, name],
    );
    await tx.rows(
      'DELETE FROM marketplace.record_tombstones WHERE app_key = $1 AND collection = $2',
      [appKey, name],
    );
    return rows.length === 1 ? (records[0]?.n ?? 0) : undefined;
  }
}
