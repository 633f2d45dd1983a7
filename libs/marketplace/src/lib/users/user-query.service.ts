import { Injectable } from '@nestjs/common';

import { readerOf, requireUserOrMaster } from '../auth/access';
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
 * Finding users: `GET /user/{appKey}?query=` and `_lookup`; never disabled
 * users, nor one that set its own `_acl.gr` to false for those it did not
 * grant `_acl.r`.
 */
@Injectable()
export class UserQueryService {
  constructor(private readonly users: UsersRepository) {}

  async list(principal: Principal, params: FindParams): Promise<KinveyDoc[]> {
    requireUserOrMaster(principal);
    const docs = await this.users.list(principal.app.appKey, {
      readableBy: readerOf(principal),
      filter: parseJsonParam(rawParam(params.query), 'query'),
      sort: parseJsonParam(rawParam(params.sort), 'sort'),
      limit: countParam(params.limit, 'limit'),
      skip: countParam(params.skip, 'skip'),
    });
    const fields = fieldsParam(params.fields);
    return fields ? docs.map((doc) => project(doc, fields)) : docs;
  }

  async lookup(principal: Principal, filter: unknown): Promise<KinveyDoc[]> {
    requireUserOrMaster(principal);
    if (!isPlainObject(filter))
      throw MarketplaceError.invalidQuery(
        '',
        'The lookup body must be a filter object.',
      );
    return this.users.list(principal.app.appKey, {
      readableBy: readerOf(principal),
      filter,
    });
  }
}
