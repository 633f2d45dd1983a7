import { Injectable } from '@nestjs/common';

import { readableSql, requireAccess } from '../auth/access';
import type { Principal } from '../auth/principal';
import { countParam, rawParam } from '../kinvey/find-params';
import type { FindParams } from '../kinvey/find-params';
import { Finder } from '../query/finder';
import type { KinveyDoc } from '../kinvey/kinvey-doc';
import { FilesRepository } from './files.repository';
import { FilesService } from './files.service';

/** `GET /blob/{appKey}?query=`: files as entities with download URLs. */
@Injectable()
export class FileQueryService {
  constructor(
    private readonly finder: Finder,
    private readonly files: FilesService,
    private readonly repository: FilesRepository,
  ) {}

  async list(
    principal: Principal,
    params: FindParams,
    base: string,
    ttl: number,
  ): Promise<KinveyDoc[]> {
    requireAccess(principal, 'read');
    const compiler = this.finder.compiler;
    const docs = await this.finder.find({
      table: 'files',
      scope: { app_key: principal.app.appKey },
      extra:
        principal.kind === 'user'
          ? (p) => readableSql('t.doc', p.add(principal.user.id))
          : undefined,
      filter: compiler.parseJsonParam(rawParam(params.query), 'query'),
      sort: compiler.parseJsonParam(rawParam(params.sort), 'sort'),
      limit: countParam(params.limit, 'limit'),
      skip: countParam(params.skip, 'skip'),
    });
    const stored = await this.repository.findMany(
      principal.app.appKey,
      docs.map((doc) => String(doc['_id'])),
    );
    const byId = new Map(stored.map((file) => [file.id, file]));
    return docs.flatMap((doc) => {
      const file = byId.get(String(doc['_id']));
      return file ? [this.files.present(principal.app, file, base, ttl)] : [];
    });
  }
}
