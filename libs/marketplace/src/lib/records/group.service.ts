import { Injectable } from '@nestjs/common';

import { readableSql, requireAccess } from '../auth/access';
import type { Principal } from '../auth/principal';
import { collectionOf } from './collections';
import { Finder } from '../query/finder';
import { RecordsRepository } from './records.repository';

/**
 * `POST /{collection}/_group`: the aggregations Kinvey SDKs generate,
 * recognised by the compiler and computed in SQL; client code never runs.
 */
@Injectable()
export class GroupService {
  constructor(
    private readonly finder: Finder,
    private readonly records: RecordsRepository,
  ) {}

  async group(
    principal: Principal,
    name: string,
    body: unknown,
  ): Promise<unknown[]> {
    const collection = collectionOf(name);
    requireAccess(principal, 'read');
    const params = this.finder.compiler.params();
    const compiled = this.finder.compiler.compileGroup(body, 't.doc', params);
    const scope = [
      `t.app_key = ${params.add(principal.app.appKey)}`,
      `t.collection = ${params.add(collection)}`,
    ];
    if (principal.kind === 'user')
      scope.push(readableSql('t.doc', params.add(principal.user.id)));
    const rows = await this.records.select<Record<string, unknown>>(
      compiled.select('marketplace.records t', scope.join(' AND ')),
      params.values,
      compiled.condition.usesRegex,
    );
    return compiled.reply(rows);
  }
}
