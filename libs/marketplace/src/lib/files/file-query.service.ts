import { Injectable } from '@nestjs/common';

import { readerOf, requireAccess } from '../auth/access';
import type { Principal } from '../auth/principal';
import { countParam, rawParam } from '../kinvey/find-params';
import type { FindParams } from '../kinvey/find-params';
import { parseJsonParam } from '../query/parse-json-param';
import type { KinveyDoc } from '../kinvey/kinvey-doc';
import { FilesRepository } from './files.repository';
import { FilesService } from './files.service';

/** `GET /blob/{appKey}?query=`: files as entities with download URLs. */
@Injectable()
export class FileQueryService {
  constructor(
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
    const docs = await this.repository.list(principal.app.appKey, {
      readableBy: readerOf(principal),
      filter: parseJsonParam(rawParam(params.query), 'query'),
      sort: parseJsonParam(rawParam(params.sort), 'sort'),
      limit: countParam(params.limit, 'limit'),
      skip: countParam(params.skip, 'skip'),
    });
    // Already only what the principal may read.
    const stored = await this.repository.findMany(
      principal.app.appKey,
      docs.map((doc) => String(doc['_id'])),
      undefined,
    );
    const byId = new Map(stored.map((file) => [file.id, file]));
    return docs.flatMap((doc) => {
      const file = byId.get(String(doc['_id']));
      return file ? [this.files.present(principal.app, file, base, ttl)] : [];
    });
  }
}
