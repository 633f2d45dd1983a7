import { Injectable } from '@nestjs/common';

import { MarketplaceRepository } from '../persistence/marketplace-repository';
import { scopeSql } from '../query/acl-conditions';
import type { ReadScope } from '../query/acl-conditions';
import { SqlParams } from '../query/sql-params';
import type { OfferRow } from './match';

const NOT_CANCELED = `r.doc->>'canceled' IS DISTINCT FROM 'true'`;

/** The collections needs and offers are read from (both layouts). */
export const NEED_COLLECTIONS = ['requiredAssortment', 'assortment'] as const;
export const OFFER_COLLECTIONS = ['availableAssortment', 'assortment'] as const;

/**
 * How the caller reads each collection matching reads, by the
 * collection's permission level (`readScope`); a collection the app did
 * not declare is absent and reads nothing.
 */
export type MatchScopes = ReadonlyMap<string, ReadScope>;

function sameScope(a: ReadScope | undefined, b: ReadScope | undefined) {
  return (
    a !== undefined &&
    b !== undefined &&
    a.readableBy === b.readableBy &&
    Boolean(a.privately) === Boolean(b.privately)
  );
}

/**
 * The read rule over `r.doc` for records of `collections`, each under its
 * own level: one condition when they all read alike (the usual case, the
 * same SQL as a single collection's), else one per collection.
 */
function readableIn(
  collections: readonly string[],
  scopes: MatchScopes,
  params: SqlParams,
): string {
  const [first, ...others] = collections.map((name) => scopes.get(name));
  if (others.every((other) => sameScope(first, other)) && first)
    return scopeSql('r.doc', first, params);
  const cases = collections.map((name) => {
    const scope = scopes.get(name);
    // Collection names are this file's constants, never input.
    return `WHEN '${name}' THEN ${scope ? scopeSql('r.doc', scope, params) : 'false'}`;
  });
  return `(CASE r.collection ${cases.join(' ')} ELSE false END)`;
}

/** The items of the two assortment layouts that matching reads. */
@Injectable()
export class MatchRepository extends MarketplaceRepository {
  /**
   * A producer's needed items that the caller may read, in record then
   * item order (unchecked JSON).
   */
  async neededItems(
    appKey: string,
    producer: string,
    scopes: MatchScopes,
  ): Promise<unknown[]> {
    const acl = new SqlParams(2);
    const readable = readableIn(NEED_COLLECTIONS, scopes, acl);
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
   * The offered items, not canceled, that the caller may read, of
   * producers other than `asker`, whose name is one of `names`
   * (lower-cased, trimmed).
   */
  offers(
    appKey: string,
    names: string[],
    asker: string,
    scopes: MatchScopes,
  ): Promise<OfferRow[]> {
    const acl = new SqlParams(3);
    const readable = readableIn(OFFER_COLLECTIONS, scopes, acl);
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
