import { Injectable } from '@nestjs/common';

import { MarketplaceRepository } from '../persistence/marketplace-repository';
import { readableByOrAll } from '../query/acl-conditions';
import type { Reader } from '../query/acl-conditions';
import { SqlParams } from '../query/sql-params';
import type { OfferRow } from './match';

const NOT_CANCELED = `r.doc->>'canceled' IS DISTINCT FROM 'true'`;

/** The items of the two assortment layouts that matching reads. */
@Injectable()
export class MatchRepository extends MarketplaceRepository {
  /**
   * A producer's needed items that `reader` may read, in record then item
   * order (unchecked JSON).
   */
  async neededItems(
    appKey: string,
    producer: string,
    reader: Reader | undefined,
  ): Promise<unknown[]> {
    const acl = new SqlParams(2);
    const readable = readableByOrAll('r.doc', reader, acl);
    const rows = await this.db.select<{ item: unknown }>(
      `SELECT item FROM marketplace.records r,
              jsonb_array_elements(CASE
                WHEN r.collection = 'requiredAssortment' AND jsonb_typeof(r.doc->'products') = 'array' THEN r.doc->'products'
                WHEN r.collection = 'assortment' AND jsonb_typeof(r.doc->'required') = 'array' THEN r.doc->'required'
                ELSE '[]'::jsonb END) WITH ORDINALITY AS e(item, n)
        WHERE r.app_key = $1 AND r.collection IN ('requiredAssortment', 'assortment')
          AND r.doc->>'id_producer' = $2 AND ${NOT_CANCELED} AND ${readable}
        ORDER BY r.created_at, r.id, e.n`,
      [appKey, producer, ...acl.values],
      false,
    );
    return rows.map((row) => row.item);
  }

  /**
   * The offered items, not canceled, that `reader` may read, of producers
   * other than `asker`, whose name is one of `names` (lower-cased, trimmed).
   */
  offers(
    appKey: string,
    names: string[],
    asker: string,
    reader: Reader | undefined,
  ): Promise<OfferRow[]> {
    const acl = new SqlParams(3);
    const readable = readableByOrAll('r.doc', reader, acl);
    return this.db.select<OfferRow & Record<string, unknown>>(
      `SELECT r.doc->>'id_producer' AS id_producer, r.collection, r.id AS record_id, e.item
         FROM marketplace.records r,
              jsonb_array_elements(CASE
                WHEN r.collection = 'availableAssortment' AND jsonb_typeof(r.doc->'products') = 'array' THEN r.doc->'products'
                WHEN r.collection = 'assortment' AND jsonb_typeof(r.doc->'available') = 'array' THEN r.doc->'available'
                ELSE '[]'::jsonb END) AS e(item)
        WHERE r.app_key = $1 AND r.collection IN ('availableAssortment', 'assortment')
          AND r.doc->>'id_producer' IS DISTINCT FROM $3 AND ${NOT_CANCELED} AND ${readable}
          AND jsonb_typeof(e.item) = 'object'
          AND lower(btrim(e.item->>'name')) = ANY($2::text[])`,
      [appKey, names, asker, ...acl.values],
      false,
    );
  }
}
