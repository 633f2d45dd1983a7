import { Injectable } from '@nestjs/common';
import { isUniqueViolation } from '@quitanda/database';

import { MarketplaceError } from '../common/marketplace.errors';
import type { MarketplaceTx } from '../persistence/marketplace-database';
import { MarketplaceRepository } from '../persistence/marketplace-repository';
import type {
  CollectionSettings,
  UniqueField,
} from '../collections/collection-settings';

export interface CollectionRow {
  readonly name: string;
  readonly settings: CollectionSettings;
  readonly updated_at: Date;
}

/** A record's value of a unique field ($3, as path parts) folded, in SQL. */
function uniqueKeySql(unique: UniqueField): string {
  let value = 'doc #>> $3::text[]';
  if (unique.fold?.includes('trim')) value = `btrim(${value})`;
  if (unique.fold?.includes('case')) value = `lower(${value})`;
  return value;
}

/** Runs a rekey of `unique`; records repeating its values: a clear 400. */
async function repeated(
  unique: UniqueField,
  rekey: () => Promise<unknown>,
): Promise<void> {
  try {
    await rekey();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw MarketplaceError.badRequest(
      `Records of the collection already repeat a value of the unique field ${unique.field}; nothing changed.`,
      `unique: ${unique.field}`,
    );
  }
}

/** The collections each app declared, and their settings. */
@Injectable()
export class CollectionsRepository extends MarketplaceRepository {
  async list(
    appKey: string,
    tx: MarketplaceTx = this.sql,
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
    tx: MarketplaceTx = this.sql,
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

  /**
   * Sets a collection's settings and recomputes its records' unique keys;
   * false when it is not declared. Records that already break the new
   * unique rule make it fail with a 400 naming the field; nothing changes.
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
    await this.rekey(appKey, name, settings.unique ?? [], tx);
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
    await this.rekey(appKey, name, settings.unique ?? [], tx);
  }

  /**
   * Recomputes what keeps the records' unique fields unique: `unique_name`
   * for the first, `record_unique_values` for the others (values of
   * fields no longer unique dropped). A field whose values existing
   * records repeat fails the change, naming the field.
   */
  private async rekey(
    appKey: string,
    name: string,
    unique: readonly UniqueField[],
    tx: MarketplaceTx,
  ): Promise<void> {
    const [first, ...others] = unique;
    await this.rekeyName(appKey, name, first, tx);
    await tx.rows(
      `DELETE FROM marketplace.record_unique_values
        WHERE app_key = $1 AND collection = $2 AND field <> ALL($3::text[])`,
      [appKey, name, others.map((other) => other.field)],
    );
    for (const other of others)
      await repeated(other, () => this.rekeyValues(appKey, name, other, tx));
  }

  private async rekeyName(
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
    await repeated(unique, () =>
      tx.rows(
        `UPDATE marketplace.records SET unique_name = ${uniqueKeySql(unique)}
          WHERE app_key = $1 AND collection = $2
            AND unique_name IS DISTINCT FROM ${uniqueKeySql(unique)}`,
        [appKey, name, unique.field.split('.')],
      ),
    );
  }

  /**
   * Only the values that changed are rewritten: first deleted, so that no
   * record's new value meets another's old one on the way (the unique
   * index is checked row by row), then written for every record.
   */
  private async rekeyValues(
    appKey: string,
    name: string,
    unique: UniqueField,
    tx: MarketplaceTx,
  ): Promise<void> {
    const folded = uniqueKeySql(unique);
    const params = [appKey, name, unique.field.split('.'), unique.field];
    await tx.rows(
      `DELETE FROM marketplace.record_unique_values v
        USING marketplace.records r
        WHERE v.app_key = $1 AND v.collection = $2 AND v.field = $4
          AND r.app_key = $1 AND r.collection = $2 AND r.id = v.record_id
          AND v.value IS DISTINCT FROM ${folded}`,
      params,
    );
    await tx.rows(
      `INSERT INTO marketplace.record_unique_values (app_key, collection, record_id, field, value)
       SELECT $1, $2, r.id, $4, ${folded} FROM marketplace.records r
        WHERE r.app_key = $1 AND r.collection = $2
       ON CONFLICT (app_key, collection, record_id, field) DO NOTHING`,
      params,
    );
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
    for (const table of ['record_tombstones', 'record_unique_values'])
      await tx.rows(
        `DELETE FROM marketplace.${table} WHERE app_key = $1 AND collection = $2`,
        [appKey, name],
      );
    return rows.length === 1 ? (records[0]?.n ?? 0) : undefined;
  }
}
