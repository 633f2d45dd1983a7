import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

import { Inject, Injectable } from '@nestjs/common';

import type { AppRecord } from '../apps/app.types';
import { AppsService } from '../apps/apps.service';
import { isReservedUserId } from '../auth/principal';
import { valueAt } from '../collections/compiled-collection';
import type { CompiledCollection } from '../collections/compiled-collection';
import { CollectionsService } from '../app-collections/collections.service';
import { reduceFileRefs } from '../kinvey/file-refs';
import { isEntityId } from '../kinvey/ids';
import { isPlainObject } from '../kinvey/kinvey-doc';
import type { KinveyDoc } from '../kinvey/kinvey-doc';
import { RecordsRepository } from '../records/records.repository';
import type { NewRecord } from '../records/records.repository';
import { FilesRepository } from '../files/files.repository';
import { FilesService } from '../files/files.service';
import { MARKETPLACE_OPTIONS } from '../common/marketplace.constants';
import { MarketplaceError } from '../common/marketplace.errors';
import type { MarketplaceModuleOptions } from '../common/marketplace.options';
import { checkUserBody, clientFields } from '../users/user-fields';
import { UsersRepository } from '../users/users.repository';
import { jsonArrayBatches } from './json-array-batches';

/** Records per batch: one round of validation and inserts. */
const IMPORT_BATCH = 1000;
/** Entities in flight at once. */
const IMPORT_CONCURRENCY = 32;
const FILE_CHUNK = 1024 * 1024;
/**
 * Stored for users a Kinvey export brings without a password: no Argon2 hash,
 * so no password matches until `marketplace:set-password` sets one.
 */
export const NO_PASSWORD = '!imported-without-password';

export interface ImportCounts {
  imported: number;
  unchanged: number;
  rejected: number;
}

export interface ImportListener {
  /** After each batch of `file`, with the running counts. */
  progress(file: string, counts: Readonly<ImportCounts>): void;
  /** A record left out, with why. */
  rejected(file: string, index: number, id: unknown, reason: string): void;
}

type Outcome = 'imported' | 'unchanged';

/** Rejection of one exported entity, with the reason reported. */
class Rejected extends Error {}

function reasonOf(error: unknown): string {
  if (error instanceof MarketplaceError) return error.plainMessage;
  if (error instanceof Rejected) return error.message;
  throw error;
}

/** `_kmd.ect`/`lmt` as exported, or `fallback` when absent. */
function kmdOf(
  entity: KinveyDoc,
  fallback: Date,
): { ect: string; lmt: string } {
  const kmd = isPlainObject(entity['_kmd']) ? entity['_kmd'] : {};
  const time = (field: string): string => {
    const value = kmd[field];
    if (value === undefined) return fallback.toISOString();
    if (typeof value !== 'string' || Number.isNaN(Date.parse(value)))
      throw new Rejected(`_kmd.${field} must be an ISO 8601 time`);
    return new Date(value).toISOString();
  };
  const ect = time('ect');
  return { ect, lmt: kmd['lmt'] === undefined ? ect : time('lmt') };
}

function idOf(entity: unknown): string {
  if (!isPlainObject(entity)) throw new Rejected('not a JSON object');
  const id = entity['_id'];
  if (typeof id !== 'string' || !isEntityId(id))
    throw new Rejected(
      '_id must be 1 to 255 characters of letters, digits, _ and -',
    );
  return id;
}

/**
 * Moving in from Kinvey: reads an export directory (`user.json`,
 * `_blob.json` with `_blob/<_id>` bytes, `<collection>.json`, each a JSON
 * array of entities as Kinvey's REST API returns them) into an app, through
 * the same repositories and validation rules as the API. Ids, `_acl` and
 * `_kmd.ect`/`lmt` are kept; an entity already there is left as it is, so a
 * second run changes nothing.
 */
@Injectable()
export class KinveyImportService {
  constructor(
    private readonly apps: AppsService,
    private readonly users: UsersRepository,
    private readonly files: FilesRepository,
    private readonly fileRefs: FilesService,
    private readonly records: RecordsRepository,
    private readonly collections: CollectionsService,
    @Inject(MARKETPLACE_OPTIONS)
    private readonly options: MarketplaceModuleOptions,
  ) {}

  /** Imports users, then files, then every collection; counts per file. */
  async importDirectory(
    appKey: string,
    dir: string,
    listener: ImportListener,
  ): Promise<Record<string, ImportCounts>> {
    const app = await this.apps.get(appKey);
    const names = new Set(await readdir(dir));
    const collections = [...names]
      .filter(
        (name) =>
          name.endsWith('.json') &&
          name !== 'user.json' &&
          name !== '_blob.json',
      )
      .map((name) => name.slice(0, -5))
      .sort();
    // Each file is a collection: declared (default settings) unless it is.
    const rules = new Map<string, CompiledCollection>();
    for (const name of collections)
      rules.set(name, await this.collections.declared(app.appKey, name));
    const report: Record<string, ImportCounts> = {};
    const run = async (
      file: string,
      one: (entity: unknown, known: ReadonlySet<string>) => Promise<Outcome>,
      known: (ids: string[]) => Promise<ReadonlySet<string>> = async () =>
        new Set(),
    ) => {
      if (!names.has(file)) return;
      report[file] = await this.each(
        join(dir, file),
        file,
        one,
        known,
        listener,
      );
    };
    await run('user.json', (entity) => this.importUser(app, entity));
    await run('_blob.json', (entity) =>
      this.importFile(app, entity, join(dir, '_blob')),
    );
    // Collections that reference none first: what others reference is there.
    const order = [...rules].sort(
      ([, a], [, b]) => a.references.length - b.references.length,
    );
    for (const [name, collection] of order)
      await run(
        `${name}.json`,
        (entity, known) => this.importRecord(app, collection, entity, known),
        (ids) => this.records.existingIds(app.appKey, name, ids),
      );
    return report;
  }

  private async each(
    path: string,
    file: string,
    one: (entity: unknown, known: ReadonlySet<string>) => Promise<Outcome>,
    known: (ids: string[]) => Promise<ReadonlySet<string>>,
    listener: ImportListener,
  ): Promise<ImportCounts> {
    const counts: ImportCounts = { imported: 0, unchanged: 0, rejected: 0 };
    let index = 0;
    for await (const batch of jsonArrayBatches(path, IMPORT_BATCH)) {
      const first = index;
      index += batch.length;
      // Which of the batch are already there, in one query.
      const present = await known(
        batch.flatMap((entity) =>
          isPlainObject(entity) && typeof entity['_id'] === 'string'
            ? [entity['_id']]
            : [],
        ),
      );
      const outcomes: Array<{ outcome: Outcome } | { reason: string }> = [];
      let next = 0;
      // A few entities at a time: enough to keep the connections busy, few
      // enough that none waits for a connection longer than its timeout.
      await Promise.all(
        Array.from({ length: IMPORT_CONCURRENCY }, async () => {
          while (next < batch.length) {
            const at = next++;
            outcomes[at] = await one(batch[at], present).then(
              (outcome) => ({ outcome }),
              (error: unknown) => ({ reason: reasonOf(error) }),
            );
          }
        }),
      );
      outcomes.forEach((result, offset) => {
        if ('outcome' in result) counts[result.outcome] += 1;
        else {
          counts.rejected += 1;
          const entity = batch[offset];
          listener.rejected(
            file,
            first + offset,
            isPlainObject(entity) ? entity['_id'] : undefined,
            result.reason,
          );
        }
      });
      listener.progress(file, counts);
    }
    return counts;
  }

  private async importUser(app: AppRecord, entity: unknown): Promise<Outcome> {
    const id = idOf(entity);
    if (isReservedUserId(id, app.appKey))
      throw MarketplaceError.reservedUserId();
    const input = entity as KinveyDoc;
    if (await this.users.findById(app.appKey, id)) return 'unchanged';
    const { password: _none, ...profile } = input;
    checkUserBody(profile, false);
    const kmd = kmdOf(input, new Date());
    const doc: KinveyDoc = {
      ...clientFields(profile),
      _id: id,
      verifieduser: input['verifieduser'] === true,
      _acl: isPlainObject(input['_acl'])
        ? { ...input['_acl'], creator: input['_acl']['creator'] ?? id }
        : { creator: id },
      _kmd: kmd,
    };
    await this.users.insert(
      app.appKey,
      {
        id,
        username: doc['username'] as string,
        doc,
        passwordHash: NO_PASSWORD,
      },
      new Date(kmd.lmt),
    );
    return 'imported';
  }

  private async importFile(
    app: AppRecord,
    entity: unknown,
    blobDir: string,
  ): Promise<Outcome> {
    const id = idOf(entity);
    const input = entity as KinveyDoc;
    const bytesPath = join(blobDir, id);
    const size = await stat(bytesPath).then(
      (found) => found.size,
      () => {
        throw new Rejected(`no bytes in _blob/${id}`);
      },
    );
    const existing = await this.files.find(app.appKey, id);
    if (existing && existing.storedBytes === size) return 'unchanged';
    if (size > this.options.maxUploadBytes)
      throw new Rejected(
        `${size} bytes exceed MARKETPLACE_MAX_UPLOAD_BYTES (${this.options.maxUploadBytes})`,
      );
    const {
      _downloadURL: _d,
      _uploadURL: _u,
      _expiresAt: _e,
      _requiredHeaders: _r,
      _type: _t,
      ...fields
    } = input;
    const acl = isPlainObject(input['_acl']) ? input['_acl'] : {};
    const creator =
      typeof acl['creator'] === 'string' ? acl['creator'] : app.appKey;
    const kmd = kmdOf(input, new Date());
    const doc: KinveyDoc = {
      ...fields,
      _id: id,
      _filename:
        typeof input['_filename'] === 'string' ? input['_filename'] : id,
      mimeType:
        typeof input['mimeType'] === 'string'
          ? input['mimeType']
          : 'application/octet-stream',
      _public: input['_public'] === true,
      _acl: { ...acl, creator },
      _kmd: kmd,
      size,
    };
    // A file left half-written by an interrupted run starts over.
    const stored = await this.files.save(
      app.appKey,
      id,
      doc,
      creator,
      size,
      new Date(kmd.lmt),
    );
    let offset = 0;
    for await (const chunk of createReadStream(bytesPath, {
      highWaterMark: FILE_CHUNK,
    })) {
      const data = chunk as Buffer;
      const result = await this.files.append(
        app.appKey,
        id,
        stored.generation,
        { offset, data, restart: false, size },
      );
      if (result.kind !== 'stored')
        throw new Error(`_blob/${id} changed while it was imported`);
      offset += data.length;
    }
    return 'imported';
  }

  private async importRecord(
    app: AppRecord,
    collection: CompiledCollection,
    entity: unknown,
    known: ReadonlySet<string>,
  ): Promise<Outcome> {
    const id = idOf(entity);
    if (known.has(id)) return 'unchanged';
    const {
      _acl: acl,
      _kmd: _k,
      ...fields
    } = reduceFileRefs(entity as KinveyDoc);
    const kmd = kmdOf(entity as KinveyDoc, new Date());
    const keptAcl = isPlainObject(acl) ? acl : {};
    const creator =
      typeof keptAcl['creator'] === 'string' ? keptAcl['creator'] : app.appKey;
    const doc: KinveyDoc = {
      ...fields,
      _id: id,
      _acl: { ...keptAcl, creator },
      _kmd: kmd,
    };
    collection.validate(doc);
    for (const reference of collection.references) {
      const value = valueAt(doc, reference.field);
      if (value === undefined || value === null) continue;
      const found =
        typeof value === 'string' &&
        (reference.to === 'user'
          ? await this.records.userExists(app.appKey, value)
          : await this.records.find({
              appKey: app.appKey,
              collection: reference.collection,
              id: value,
            }));
      if (!found)
        throw new Rejected(
          `${reference.field} ${String(value)} is not a ${reference.to === 'user' ? 'user' : `record of ${reference.collection}`} of this app (import ${reference.to === 'user' ? 'user.json' : `${reference.collection}.json`} first)`,
        );
    }
    // The operator's import: every file of the app may be referenced.
    await this.fileRefs.checkRefs({ kind: 'master', app }, [doc]);
    const record: NewRecord = {
      appKey: app.appKey,
      collection: collection.name,
      id,
      doc,
      creator,
      ...collection.uniqueKeys(doc),
      now: new Date(kmd.lmt),
    };
    await this.records.insert(record);
    return 'imported';
  }
}
