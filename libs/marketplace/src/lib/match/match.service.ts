import { Injectable } from '@nestjs/common';

import { requireUserOrMaster } from '../auth/access';
import type { Principal } from '../auth/principal';
import { isPlainObject } from '../kinvey/kinvey-doc';
import { RecordsRepository } from '../records/records.repository';
import { MarketplaceError, MarketplaceErrorCode } from '../marketplace.errors';
import { matchOffers, neededItem, productKey } from './match';
import type { NeededItem, OfferRow } from './match';

const NOT_CANCELED = `r.doc->>'canceled' IS DISTINCT FROM 'true'`;

/** `POST /rpc/{appKey}/custom/match`: offers of other producers for needs. */
@Injectable()
export class MatchService {
  constructor(private readonly records: RecordsRepository) {}

  async match(principal: Principal, body: unknown) {
    requireUserOrMaster(principal);
    if (!isPlainObject(body))
      throw new MarketplaceError(
        MarketplaceErrorCode.BadRequest,
        'The body must be a JSON object.',
      );
    const appKey = principal.app.appKey;
    let needs: NeededItem[];
    let asker: string | undefined =
      principal.kind === 'user' ? principal.user.id : undefined;
    if (typeof body['id_producer'] === 'string') {
      asker = body['id_producer'];
      needs = await this.needsOf(appKey, asker);
    } else if (Array.isArray(body['required'])) {
      needs = body['required']
        .map(neededItem)
        .filter((item): item is NeededItem => item !== undefined);
      if (needs.length !== body['required'].length)
        throw new MarketplaceError(
          MarketplaceErrorCode.BadRequest,
          'Every required item needs a name.',
          'required',
        );
    } else {
      throw new MarketplaceError(
        MarketplaceErrorCode.IncompleteRequestBody,
        'The body needs id_producer or required.',
        'id_producer, required',
      );
    }
    const keys = [...new Set(needs.map((n) => n.name.trim().toLowerCase()))];
    const offers =
      keys.length === 0 ? [] : await this.offers(appKey, keys, asker ?? '');
    const wanted = new Set(needs.map((n) => productKey(n.name, n.measurement)));
    return {
      matches: matchOffers(
        needs,
        offers.filter((o) =>
          wanted.has(productKey(o.item['name'], o.item['measurement'])),
        ),
      ),
    };
  }

  private async needsOf(
    appKey: string,
    producer: string,
  ): Promise<NeededItem[]> {
    const rows = await this.records.select<{ item: unknown }>(
      `SELECT item FROM marketplace.records r,
              jsonb_array_elements(CASE
                WHEN r.collection = 'requiredAssortment' AND jsonb_typeof(r.doc->'products') = 'array' THEN r.doc->'products'
                WHEN r.collection = 'assortment' AND jsonb_typeof(r.doc->'required') = 'array' THEN r.doc->'required'
                ELSE '[]'::jsonb END) WITH ORDINALITY AS e(item, n)
        WHERE r.app_key = $1 AND r.collection IN ('requiredAssortment', 'assortment')
          AND r.doc->>'id_producer' = $2 AND ${NOT_CANCELED}
        ORDER BY r.created_at, r.id, e.n`,
      [appKey, producer],
      false,
    );
    return rows
      .map((row) => neededItem(row.item))
      .filter((item): item is NeededItem => item !== undefined);
  }

  private offers(
    appKey: string,
    names: string[],
    asker: string,
  ): Promise<OfferRow[]> {
    return this.records.select<OfferRow & Record<string, unknown>>(
      `SELECT r.doc->>'id_producer' AS id_producer, r.collection, r.id AS record_id, e.item
         FROM marketplace.records r,
              jsonb_array_elements(CASE
                WHEN r.collection = 'availableAssortment' AND jsonb_typeof(r.doc->'products') = 'array' THEN r.doc->'products'
                WHEN r.collection = 'assortment' AND jsonb_typeof(r.doc->'available') = 'array' THEN r.doc->'available'
                ELSE '[]'::jsonb END) AS e(item)
        WHERE r.app_key = $1 AND r.collection IN ('availableAssortment', 'assortment')
          AND r.doc->>'id_producer' IS DISTINCT FROM $3 AND ${NOT_CANCELED}
          AND jsonb_typeof(e.item) = 'object'
          AND lower(btrim(e.item->>'name')) = ANY($2::text[])`,
      [appKey, names, asker],
      false,
    );
  }
}
