import { Inject, Injectable } from '@nestjs/common';
import { CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import {
  canRead,
  canWrite,
  nextAcl,
  readerOf,
  requireAccess,
} from '../auth/access';
import type { Principal } from '../auth/principal';
import { MarketplaceError } from '../marketplace.errors';
import { FilesService } from '../files/files.service';
import { parseJsonParam } from '../query/parse-json-param';
import { collectionOf, uniqueNameOf, validateRecord } from './collections';
import type { CollectionName } from './collections';
import { reduceFileRefs } from '../kinvey/file-refs';
import {
  countParam,
  fieldsParam,
  project,
  rawParam,
} from '../kinvey/find-params';
import type { FindParams } from '../kinvey/find-params';
import { entityIdOf } from '../kinvey/ids';
import { isPlainObject } from '../kinvey/kinvey-doc';
import type { KinveyDoc } from '../kinvey/kinvey-doc';
import { RecordsRepository } from './records.repository';
import type { NewRecord, RecordCriteria } from './records.repository';

interface PreparedRecord {
  readonly record: NewRecord;
  /** The `id_producer` the record names, when its collection has one. */
  readonly producer?: string;
}

export interface MultiInsertResult {
  entities: Array<KinveyDoc | null>;
  errors: Array<{ index: number; code: string; errmsg: string }>;
}

/** The data calls of `/appdata/{appKey}/{collection}`. */
@Injectable()
export class RecordsService {
  constructor(
    private readonly records: RecordsRepository,
    private readonly files: FilesService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Access rules and filter of a read by this principal. */
  private criteria(principal: Principal, params: FindParams): RecordCriteria {
    return {
      readableBy: readerOf(principal),
      filter: parseJsonParam(rawParam(params.query), 'query'),
      sort: parseJsonParam(rawParam(params.sort), 'sort'),
      limit: countParam(params.limit, 'limit'),
      skip: countParam(params.skip, 'skip'),
    };
  }

  /**
   * The records a find selects, each as JSON text: as PostgreSQL renders
   * the stored document, or projected when `fields` asks for it.
   */
  async listTexts(
    principal: Principal,
    name: string,
    params: FindParams,
  ): Promise<string[]> {
    const collection = collectionOf(name);
    requireAccess(principal, 'read');
    const appKey = principal.app.appKey;
    const criteria = this.criteria(principal, params);
    const fields = fieldsParam(params.fields);
    if (!fields) return this.records.listTexts(appKey, collection, criteria);
    const docs = await this.records.list(appKey, collection, criteria);
    return docs.map((doc) => JSON.stringify(project(doc, fields)));
  }

  async count(
    principal: Principal,
    name: string,
    params: FindParams,
  ): Promise<number> {
    const collection = collectionOf(name);
    requireAccess(principal, 'read');
    return this.records.count(
      principal.app.appKey,
      collection,
      this.criteria(principal, { query: params.query }),
    );
  }

  async get(
    principal: Principal,
    name: string,
    id: string,
  ): Promise<KinveyDoc> {
    const collection = collectionOf(name);
    requireAccess(principal, 'read');
    const doc = await this.records.find(
      { appKey: principal.app.appKey, collection, id },
      'replica',
    );
    if (!doc) throw MarketplaceError.entityNotFound(id);
    if (!canRead(principal, doc))
      throw MarketplaceError.insufficient(
        'the record is not readable by this user',
      );
    return doc;
  }

  /**
   * Validates a record and builds what is stored, with the `id_producer`
   * it names (the write checks that this user exists).
   */
  private prepare(
    principal: Principal,
    collection: CollectionName,
    body: unknown,
    id: string | undefined,
    existing: KinveyDoc | undefined,
  ): PreparedRecord {
    if (!isPlainObject(body))
      throw MarketplaceError.badRequest('A record must be a JSON object.');
    const now = this.clock.now();
    const iso = now.toISOString();
    const { _kmd: _ignored, _acl: sentAcl, ...fields } = reduceFileRefs(body);
    const recordId = id ?? entityIdOf(fields['_id'], now);
    if (id !== undefined && fields['_id'] !== undefined && fields['_id'] !== id)
      throw MarketplaceError.idMismatch();
    const acl = nextAcl(principal, sentAcl, existing);
    const existingKmd =
      existing && isPlainObject(existing['_kmd'])
        ? existing['_kmd']
        : undefined;
    const doc: KinveyDoc = {
      ...fields,
      _id: recordId,
      _acl: acl,
      _kmd: {
        ect: (existingKmd?.['ect'] as string | undefined) ?? iso,
        lmt: iso,
      },
    };
    const producer = validateRecord(collection, doc);
    // A user's records are its own offers and needs; one granted `_acl.w`
    // may save another's record as long as its producer stays the same.
    if (
      producer !== undefined &&
      principal.kind === 'user' &&
      producer !== principal.user.id &&
      producer !== existing?.['id_producer']
    )
      throw MarketplaceError.notOwnProducer();
    return {
      record: {
        appKey: principal.app.appKey,
        collection,
        id: recordId,
        doc,
        creator: String(acl['creator']),
        uniqueName: uniqueNameOf(collection, doc),
        now,
      },
      producer,
    };
  }

  /** Inserts a prepared record; its producer must be a user of the app. */
  private async insert({ record, producer }: PreparedRecord): Promise<void> {
    if (!(await this.records.insert(record, producer)))
      throw MarketplaceError.unknownProducer();
  }

  async create(
    principal: Principal,
    name: string,
    body: unknown,
  ): Promise<KinveyDoc> {
    const collection = collectionOf(name);
    requireAccess(principal, 'create');
    const prepared = this.prepare(
      principal,
      collection,
      body,
      undefined,
      undefined,
    );
    await this.files.checkRefs(principal, [prepared.record.doc]);
    await this.insert(prepared);
    return prepared.record.doc;
  }

  /** API version 5+: an array body; each entity succeeds or fails alone. */
  async createMany(
    principal: Principal,
    name: string,
    body: unknown[],
  ): Promise<MultiInsertResult> {
    const collection = collectionOf(name);
    requireAccess(principal, 'create');
    const result: MultiInsertResult = { entities: [], errors: [] };
    const prepared = await Promise.all(
      body
        .map(async (entity) => {
          const record = this.prepare(
            principal,
            collection,
            entity,
            undefined,
            undefined,
          );
          await this.files.checkRefs(principal, [record.record.doc]);
          return record;
        })
        .map((p) =>
          p.then(
            (record) => ({ record }),
            (error: unknown) => ({ error }),
          ),
        ),
    );
    const valid = prepared.flatMap((p) => ('record' in p ? [p.record] : []));
    const outcomes = await this.records.insertEach(valid);
    let next = 0;
    prepared.forEach((p, index) => {
      let error: unknown = 'error' in p ? p.error : undefined;
      if ('record' in p) {
        const outcome = outcomes[next++];
        if (outcome === true) {
          result.entities.push(p.record.record.doc);
          return;
        }
        error =
          outcome === false
            ? MarketplaceError.unknownProducer()
            : outcome?.error;
      }
      result.entities.push(null);
      if (!(error instanceof MarketplaceError)) throw error;
      result.errors.push({
        index,
        code: error.code,
        errmsg: `${error.message} ${error.debug}`.trim(),
      });
    });
    return result;
  }

  /** PUT: replaces the record, or creates it (`created` true) when absent. */
  async upsert(
    principal: Principal,
    name: string,
    id: string,
    body: unknown,
  ): Promise<{ doc: KinveyDoc; created: boolean }> {
    const collection = collectionOf(name);
    const existing = await this.records.find({
      appKey: principal.app.appKey,
      collection,
      id,
    });
    if (!existing) {
      requireAccess(principal, 'create');
      const prepared = this.prepare(
        principal,
        collection,
        body,
        entityIdOf(id, this.clock.now()),
        undefined,
      );
      await this.files.checkRefs(principal, [prepared.record.doc]);
      await this.insert(prepared);
      return { doc: prepared.record.doc, created: true };
    }
    if (!canWrite(principal, existing))
      throw MarketplaceError.insufficient(
        'the record is not writable by these credentials',
      );
    const { record, producer } = this.prepare(
      principal,
      collection,
      body,
      id,
      existing,
    );
    if (
      producer !== undefined &&
      !(await this.records.userExists(principal.app.appKey, producer))
    )
      throw MarketplaceError.unknownProducer();
    await this.files.checkRefs(principal, [record.doc], existing);
    await this.records.replace(record);
    return { doc: record.doc, created: false };
  }

  async remove(
    principal: Principal,
    name: string,
    id: string,
  ): Promise<number> {
    const collection = collectionOf(name);
    const existing = await this.records.find({
      appKey: principal.app.appKey,
      collection,
      id,
    });
    if (!existing) throw MarketplaceError.entityNotFound(id);
    if (!canWrite(principal, existing))
      throw MarketplaceError.insufficient(
        'the record is not writable by these credentials',
      );
    return this.records.deleteOne(
      { appKey: principal.app.appKey, collection, id },
      this.clock.now(),
    );
  }

  async removeWhere(
    principal: Principal,
    name: string,
    params: FindParams,
  ): Promise<number> {
    const collection = collectionOf(name);
    if (principal.kind === 'app')
      throw MarketplaceError.insufficient('app credentials may not delete');
    const raw = rawParam(params.query);
    const filter = parseJsonParam(raw, 'query');
    if (raw === undefined || filter === undefined)
      throw MarketplaceError.badRequest(
        'Deleting by query needs a query.',
        'query',
      );
    return this.records.deleteMatching(
      principal.app.appKey,
      collection,
      filter,
      principal.kind === 'user' ? principal.user.id : undefined,
      this.clock.now(),
    );
  }

  async deltaSet(
    principal: Principal,
    name: string,
    params: FindParams & { since?: unknown },
  ): Promise<{ changed: KinveyDoc[]; deleted: Array<{ _id: string }> }> {
    const collection = collectionOf(name);
    requireAccess(principal, 'read');
    const raw = rawParam(params.since);
    const since = raw ? new Date(raw) : undefined;
    if (!since || Number.isNaN(since.getTime()))
      throw MarketplaceError.outOfRange(
        'since must be an ISO 8601 time.',
        `since=${raw ?? ''}`,
      );
    const changed = await this.records.list(principal.app.appKey, collection, {
      ...this.criteria(principal, { query: params.query }),
      updatedSince: since,
    });
    const deleted = await this.records.tombstonesSince(
      principal.app.appKey,
      collection,
      since,
    );
    return { changed, deleted: deleted.map((id) => ({ _id: id })) };
  }

  /** `POST /{collection}/_group`. */
  async group(
    principal: Principal,
    name: string,
    body: unknown,
  ): Promise<unknown[]> {
    const collection = collectionOf(name);
    requireAccess(principal, 'read');
    return this.records.group(
      principal.app.appKey,
      collection,
      body,
      readerOf(principal),
    );
  }
}
