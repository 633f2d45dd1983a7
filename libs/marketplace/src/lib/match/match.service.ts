import { Injectable } from '@nestjs/common';

import { requireUserOrMaster } from '../auth/access';
import { CollectionsService } from '../app-collections/collections.service';
import { readScope } from '../records/collection-access';
import type { Principal } from '../auth/principal';
import { isPlainObject } from '../kinvey/kinvey-doc';
import { MarketplaceError } from '../common/marketplace.errors';
import { matchOffers, neededItem, productKey } from './match';
import {
  MatchRepository,
  NEED_COLLECTIONS,
  OFFER_COLLECTIONS,
} from './match.repository';
import type { MatchScopes } from './match.repository';
import type { NeededItem } from './match';

/** `POST /rpc/{appKey}/custom/match`: offers of other producers for needs. */
@Injectable()
export class MatchService {
  constructor(
    private readonly repository: MatchRepository,
    private readonly collections: CollectionsService,
  ) {}

  /**
   * How the principal reads each of `names` under its level, as every
   * other read of the collection does (from the cached rules: no query).
   */
  private async scopes(
    principal: Principal,
    names: readonly string[],
  ): Promise<MatchScopes> {
    const scopes = new Map<string, ReturnType<typeof readScope>>();
    for (const name of names) {
      const collection = await this.collections.find(
        principal.app.appKey,
        name,
      );
      if (collection)
        scopes.set(name, readScope(principal, collection.permissions));
    }
    return scopes;
  }

  async match(principal: Principal, body: unknown) {
    requireUserOrMaster(principal);
    if (!isPlainObject(body)) throw MarketplaceError.notAnObject();
    const appKey = principal.app.appKey;
    let needs: NeededItem[];
    let asker: string | undefined =
      principal.kind === 'user' ? principal.user.id : undefined;
    if (typeof body['id_producer'] === 'string') {
      asker = body['id_producer'];
      needs = await this.needsOf(principal, asker);
    } else if (Array.isArray(body['required'])) {
      needs = body['required']
        .map(neededItem)
        .filter((item): item is NeededItem => item !== undefined);
      if (needs.length !== body['required'].length)
        throw MarketplaceError.badRequest(
          'Every required item needs a name.',
          'required',
        );
    } else {
      throw MarketplaceError.incompleteBody(
        'The body needs id_producer or required.',
        'id_producer, required',
      );
    }
    const keys = [...new Set(needs.map((n) => n.name.trim().toLowerCase()))];
    const offers =
      keys.length === 0
        ? []
        : await this.repository.offers(
            appKey,
            keys,
            asker ?? '',
            await this.scopes(principal, OFFER_COLLECTIONS),
          );
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
    principal: Principal,
    producer: string,
  ): Promise<NeededItem[]> {
    return (
      await this.repository.neededItems(
        principal.app.appKey,
        producer,
        await this.scopes(principal, NEED_COLLECTIONS),
      )
    )
      .map(neededItem)
      .filter((item): item is NeededItem => item !== undefined);
  }
}
