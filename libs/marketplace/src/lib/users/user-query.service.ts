import { Injectable } from '@nestjs/common';

import { requireUserOrMaster } from '../auth/access';
import { CollectionsService } from '../app-collections/collections.service';
import { readScope } from '../records/collection-access';
import type { ReadScope } from '../query/acl-conditions';
import type { Principal } from '../auth/principal';
import {
  countParam,
  fieldsParam,
  project,
  rawParam,
} from '../kinvey/find-params';
import type { FindParams } from '../kinvey/find-params';
import type { KinveyDoc } from '../kinvey/kinvey-doc';
import { isPlainObject } from '../kinvey/kinvey-doc';
import { MarketplaceError } from '../common/marketplace.errors';
import { parseJsonParam } from '../query/parse-json-param';
import { UsersRepository } from './users.repository';

/**
 * Finding users: `GET /user/{appKey}?query=`, `_count` and `_lookup`; never disabled
 * users, nor one the user collection's level or the user's own `_acl`
 * keeps from the caller.
 */
@Injectable()
export class UserQueryService {
  constructor(
    private readonly users: UsersRepository,
    private readonly collections: CollectionsService,
  ) {}

  private async scope(principal: Principal): Promise<ReadScope> {
    requireUserOrMaster(principal);
    const level = await this.collections.userLevel(principal.app.appKey);
    return readScope(principal, level);
  }

  async list(principal: Principal, params: FindParams): Promise<KinveyDoc[]> {
    const scope = await this.scope(principal);
    const docs = await this.users.list(principal.app.appKey, {
      ...scope,
      filter: parseJsonParam(rawParam(params.query), 'query'),
      sort: parseJsonParam(rawParam(params.sort), 'sort'),
      limit: countParam(params.limit, 'limit'),
      skip: countParam(params.skip, 'skip'),
    });
    const fields = fieldsParam(params.fields);
    return fields ? docs.map((doc) => project(doc, fields)) : docs;
  }

  /** `GET /user/{appKey}/_count?query=`: the users a find would see. */
  async count(principal: Principal, params: FindParams): Promise<number> {
    const scope = await this.scope(principal);
    return this.users.count(principal.app.appKey, {
      ...scope,
      filter: parseJsonParam(rawParam(params.query), 'query'),
    });
  }

  async lookup(principal: Principal, filter: unknown): Promise<KinveyDoc[]> {
    const scope = await this.scope(principal);
    if (!isPlainObject(filter))
      throw MarketplaceError.invalidQuery(
        '',
        'The lookup body must be a filter object.',
      );
    return this.users.list(principal.app.appKey, { ...scope, filter });
  }
}
