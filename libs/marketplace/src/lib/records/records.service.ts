import { Inject, Injectable } from '@nestjs/common';
import { CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { nextAcl } from '../auth/access';
import type { Principal } from '../auth/principal';
import {
  mayRead,
  mayWrite,
  readScope,
  requireCreate,
} from './collection-access';
import { valueAt } from '../collections/compiled-collection';
import type { CompiledCollection } from '../collections/compiled-collection';
import { CollectionsService } from '../app-collections/collections.service';
import type { ResolvedCollection } from '../app-collections/collections.service';
import { MarketplaceError } from '../common/marketplace.errors';
import { FilesService } from '../files/files.service';
import { parseJsonParam } from '../query/parse-json-param';
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
import type { MarketplaceTx } from '../persistence/marketplace-database';

interface PreparedRecord {
  readonly record: NewRecord;
  /** The user id its first user reference names, checked by the insert. */
  readonly producer?: string;
  /** Its first user reference field, named by the error when it is unknown. */
  readonly producerField?: string;
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
    private readonly collections: CollectionsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  private rules(
    principal: Principal,
    name: string,
  ): Promise<ResolvedCollection> {
    return this.collections.resolve(principal.app, name);
  }

  /** Access rules and filter of a read by this principal. */
  private criteria(
    principal: Principal,
    collection: CompiledCollection,
    params: FindParams,
  ): RecordCriteria {
    return {
      ...readScope(principal, collection.permissions),
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
    const collection = await this.rules(principal, name);
    const appKey = principal.app.appKey;
    const criteria = this.criteria(principal, collection, params);
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
    const collection = await this.rules(principal, name);
    return this.records.count(
      principal.app.appKey,
      collection,
      this.criteria(principal, collection, { query: params.query }),
    );
  }

  async get(
    principal: Principal,
    name: string,
    id: string,
  ): Promise<KinveyDoc> {
    const collection = await this.rules(principal, name);
    readScope(principal, collection.permissions);
    const doc = await this.records.find(
      { appKey: principal.app.appKey, collection: collection.name, id },
      'replica',
    );
    if (!doc) throw MarketplaceError.entityNotFound(id);
    if (!mayRead(principal, collection.permissions, doc))
      throw MarketplaceError.insufficient(
        'the record is not readable by this user',
      );
    return doc;
  }

  /**
   * Whether the record `id` of `name` exists and the principal may read
   * it; a reference the record already held (`kept`: one granted
   * `_acl.w` saves another's record) needs only to exist.
   */
  private async referable(
    principal: Principal,
    name: string,
    id: string,
    kept: boolean,
  ): Promise<boolean> {
    const appKey = principal.app.appKey;
    const [collection, doc] = await Promise.all([
      this.collections.find(appKey, name),
      this.records.find({ appKey, collection: name, id }),
    ]);
    return (
      doc !== undefined &&
      (kept || mayRead(principal, collection?.permissions ?? 'shared', doc))
    );
  }

  /**
   * Whether a user may name user `id` without learning more than it may
   * read: always, unless the user collection is private (then only users
   * it may read; the level comes from cached rules, and only a reference
   * to another user costs a query). Existence is the insert's to check.
   */
  private async userReferable(
    principal: Principal,
    id: string,
  ): Promise<boolean> {
    if (principal.kind !== 'user' || id === principal.user.id) return true;
    const appKey = principal.app.appKey;
    if ((await this.collections.userLevel(appKey)) !== 'private') return true;
    return this.records.userReadablePrivately(appKey, id, principal.user.id);
  }

  /**
   * Checks the references of a record: a caller-only user reference names
   * the calling user (or keeps what the record held); every one but the
   * first user reference (which the insert checks in the same statement)
   * is checked here. Returns that first user reference.
   */
  private async checkReferences(
    principal: Principal,
    collection: CompiledCollection,
    doc: KinveyDoc,
    existing: KinveyDoc | undefined,
  ): Promise<{ producer?: string; producerField?: string }> {
    let first: { producer?: string; producerField?: string } = {};
    for (const reference of collection.references) {
      const value = valueAt(doc, reference.field);
      if (value === undefined || value === null) continue;
      const target = reference.to === 'user' ? 'a user' : 'a record';
      if (typeof value !== 'string')
        throw MarketplaceError.unknownReference(reference.field, target);
      const kept =
        existing !== undefined && valueAt(existing, reference.field) === value;
      if (reference.to === 'collection') {
        if (
          !(await this.referable(principal, reference.collection, value, kept))
        )
          // Unreadable answers as missing: the error tells no one that
          // a record they may not read exists.
          throw MarketplaceError.unknownReference(reference.field, target);
        continue;
      }
      // A user's records are its own; one granted `_acl.w` may save
      // another's record as long as the reference stays the same.
      if (
        reference.callerWhenUser &&
        principal.kind === 'user' &&
        value !== principal.user.id &&
        !kept
      )
        throw MarketplaceError.notOwnReference(reference.field);
      if (!kept && !(await this.userReferable(principal, value)))
        throw MarketplaceError.unknownReference(reference.field, target);
      if (first.producerField === undefined)
        first = { producer: value, producerField: reference.field };
      else if (!(await this.records.userExists(principal.app.appKey, value)))
        throw MarketplaceError.unknownReference(reference.field, target);
    }
    return first;
  }

  /**
   * Validates a record and builds what is stored, with the user its first
   * user reference names (the write checks that this user exists).
   */
  private async prepare(
    principal: Principal,
    collection: CompiledCollection,
    body: unknown,
    id: string | undefined,
    existing: KinveyDoc | undefined,
  ): Promise<PreparedRecord> {
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
    collection.validate(doc);
    const references = await this.checkReferences(
      principal,
      collection,
      doc,
      existing,
    );
    return {
      record: {
        appKey: principal.app.appKey,
        collection: collection.name,
        id: recordId,
        doc,
        creator: String(acl['creator']),
        ...collection.uniqueKeys(doc),
        now,
      },
      ...references,
    };
  }

  /** Inserts a prepared record; its first user reference must be a user. */
  private async insert(
    { record, producer, producerField }: PreparedRecord,
    tx?: MarketplaceTx,
  ): Promise<void> {
    if (!(await this.records.insert(record, producer, tx)))
      throw MarketplaceError.unknownReference(producerField ?? '', 'a user');
  }

  /** `insert`, declaring the collection with it when it is the first. */
  private store(
    collection: ResolvedCollection,
    prepared: PreparedRecord,
  ): Promise<void> {
    return this.collections.writing(prepared.record.appKey, collection, (tx) =>
      this.insert(prepared, tx),
    );
  }

  /**
   * Inserts each record on its own (a failure leaves the others). Into a
   * collection not declared yet, one at a time until one is stored and
   * so declares it; the rest then go in together.
   */
  private async insertEach(
    collection: ResolvedCollection,
    prepared: readonly PreparedRecord[],
  ): Promise<Array<true | { error: unknown }>> {
    const outcomes: Array<true | { error: unknown }> = [];
    let next = 0;
    while (collection.undeclared && next < prepared.length) {
      const outcome = await this.store(collection, prepared[next++]).then(
        () => true as const,
        (error: unknown) => ({ error }),
      );
      outcomes.push(outcome);
      if (outcome === true) break;
    }
    const rest = await Promise.all(
      prepared.slice(next).map((p) =>
        this.insert(p).then(
          () => true as const,
          (error: unknown) => ({ error }),
        ),
      ),
    );
    return [...outcomes, ...rest];
  }

  async create(
    principal: Principal,
    name: string,
    body: unknown,
  ): Promise<KinveyDoc> {
    const collection = await this.rules(principal, name);
    requireCreate(principal, collection.permissions);
    const prepared = await this.prepare(
      principal,
      collection,
      body,
      undefined,
      undefined,
    );
    await this.files.checkRefs(principal, [prepared.record.doc]);
    await this.store(collection, prepared);
    return prepared.record.doc;
  }

  /** API version 5+: an array body; each entity succeeds or fails alone. */
  async createMany(
    principal: Principal,
    name: string,
    body: unknown[],
  ): Promise<MultiInsertResult> {
    const collection = await this.rules(principal, name);
    requireCreate(principal, collection.permissions);
    const result: MultiInsertResult = { entities: [], errors: [] };
    const prepared = await Promise.all(
      body
        .map(async (entity) => {
          const record = await this.prepare(
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
    const outcomes = await this.insertEach(collection, valid);
    let next = 0;
    prepared.forEach((p, index) => {
      let error: unknown = 'error' in p ? p.error : undefined;
      if ('record' in p) {
        const outcome = outcomes[next++];
        if (outcome === true) {
          result.entities.push(p.record.record.doc);
          return;
        }
        error = outcome?.error;
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
    const collection = await this.rules(principal, name);
    const existing = await this.records.find({
      appKey: principal.app.appKey,
      collection: collection.name,
      id,
    });
    if (!existing) {
      requireCreate(principal, collection.permissions);
      const prepared = await this.prepare(
        principal,
        collection,
        body,
        entityIdOf(id, this.clock.now()),
        undefined,
      );
      await this.files.checkRefs(principal, [prepared.record.doc]);
      await this.store(collection, prepared);
      return { doc: prepared.record.doc, created: true };
    }
    if (!mayWrite(principal, collection.permissions, existing))
      throw MarketplaceError.insufficient(
        'the record is not writable by these credentials',
      );
    const { record, producer, producerField } = await this.prepare(
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
      throw MarketplaceError.unknownReference(producerField ?? '', 'a user');
    await this.files.checkRefs(principal, [record.doc], existing);
    await this.records.replace(record);
    return { doc: record.doc, created: false };
  }

  async remove(
    principal: Principal,
    name: string,
    id: string,
  ): Promise<number> {
    const collection = await this.rules(principal, name);
    const key = {
      appKey: principal.app.appKey,
      collection: collection.name,
      id,
    };
    const existing = await this.records.find(key);
    if (!existing) throw MarketplaceError.entityNotFound(id);
    if (!mayWrite(principal, collection.permissions, existing))
      throw MarketplaceError.insufficient(
        'the record is not writable by these credentials',
      );
    return this.records.deleteOne(key, this.clock.now());
  }

  async removeWhere(
    principal: Principal,
    name: string,
    params: FindParams,
  ): Promise<number> {
    const collection = await this.rules(principal, name);
    const level = collection.permissions;
    if (
      principal.kind === 'app' ||
      (level === 'read-only' && principal.kind !== 'master')
    )
      throw MarketplaceError.insufficient('these credentials may not delete');
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
      principal.kind === 'user' && level !== 'full'
        ? principal.user.id
        : undefined,
      level === 'private',
      this.clock.now(),
    );
  }

  async deltaSet(
    principal: Principal,
    name: string,
    params: FindParams & { since?: unknown },
  ): Promise<{ changed: KinveyDoc[]; deleted: Array<{ _id: string }> }> {
    const collection = await this.rules(principal, name);
    if (!collection.deltaSet)
      throw MarketplaceError.deltaSetDisabled(collection.name);
    const raw = rawParam(params.since);
    const since = raw ? new Date(raw) : undefined;
    if (!since || Number.isNaN(since.getTime()))
      throw MarketplaceError.outOfRange(
        'since must be an ISO 8601 time.',
        `since=${raw ?? ''}`,
      );
    const criteria = this.criteria(principal, collection, {
      query: params.query,
    });
    const changed = await this.records.list(principal.app.appKey, collection, {
      ...criteria,
      updatedSince: since,
    });
    const deleted = await this.records.tombstonesSince(
      principal.app.appKey,
      collection.name,
      since,
      criteria,
    );
    return { changed, deleted: deleted.map((id) => ({ _id: id })) };
  }

  /** `POST /{collection}/_group`. */
  async group(
    principal: Principal,
    name: string,
    body: unknown,
  ): Promise<unknown[]> {
    const collection = await this.rules(principal, name);
    return this.records.group(
      principal.app.appKey,
      collection,
      body,
      readScope(principal, collection.permissions),
    );
  }
}
