import { Inject, Injectable } from '@nestjs/common';
import { BoundedMap, CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import type { AppRecord } from '../apps/app.types';
import {
  canRead,
  canWrite,
  nextAcl,
  ownsAcl,
  readerOf,
  requireAccess,
} from '../auth/access';
import type { Principal } from '../auth/principal';
import type { FileRef } from '../kinvey/file-refs';
import {
  fileIdsIn,
  mapFileRefs,
  replaceRefsInText,
  storedRefsInText,
} from '../kinvey/file-refs';
import { entityIdOf } from '../kinvey/ids';
import { isPlainObject } from '../kinvey/kinvey-doc';
import type { KinveyDoc } from '../kinvey/kinvey-doc';
import {
  DEFAULT_URL_TTL_SECONDS,
  MARKETPLACE_OPTIONS,
} from '../common/marketplace.constants';
import { MarketplaceError } from '../common/marketplace.errors';
import type { MarketplaceModuleOptions } from '../common/marketplace.options';
import { FilesRepository } from './files.repository';
import type { StoredFile } from './files.repository';
import { isMediaType } from './media-type';
import { NEVER, signature } from './url-signer';

/** Lifetime asked with `ttl_in_seconds`/`kinveyfile_ttl`, else the default. */
export function ttlOf(raw: unknown): number {
  const value = typeof raw === 'string' ? Number.parseInt(raw, 10) : NaN;
  return Number.isFinite(value) && value > 0
    ? Math.min(value, 7 * 86_400)
    : DEFAULT_URL_TTL_SECONDS;
}

const SERVER_FIELDS = [
  '_id',
  '_acl',
  '_kmd',
  '_downloadURL',
  '_uploadURL',
  '_expiresAt',
  '_requiredHeaders',
  '_type',
];

/** File metadata, signed URLs and the expansion of references in records. */
/** About 6 MB of rendered public files at most. */
const RENDERED_FILES = 10_000;

@Injectable()
export class FilesService {
  /** Public files' expansions as JSON text, by version and base URL. */
  private readonly rendered = new BoundedMap<string, string>(RENDERED_FILES);

  constructor(
    readonly repository: FilesRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MARKETPLACE_OPTIONS)
    private readonly options: MarketplaceModuleOptions,
  ) {}

  private url(
    app: AppRecord,
    file: Pick<StoredFile, 'id' | 'generation'>,
    purpose: 'upload' | 'download',
    base: string,
    expires: number,
  ): string {
    const sig = signature(
      app.signingKey,
      purpose,
      app.appKey,
      file.id,
      file.generation,
      expires,
    );
    const path = `/blob/${encodeURIComponent(app.appKey)}/_${purpose}/${encodeURIComponent(file.id)}`;
    return `${base}${path}?generation=${file.generation}&expires=${expires}&signature=${sig}`;
  }

  /** The file as clients see it, with a download URL (permanent if public). */
  present(
    app: AppRecord,
    file: Pick<StoredFile, 'id' | 'doc' | 'generation'>,
    base: string,
    ttlSeconds: number,
  ): KinveyDoc {
    const isPublic = file.doc['_public'] === true;
    const expiresAt =
      Math.floor(this.clock.now().getTime() / 1000) + ttlSeconds;
    const doc: KinveyDoc = {
      ...file.doc,
      _downloadURL: this.url(
        app,
        file,
        'download',
        base,
        isPublic ? NEVER : expiresAt,
      ),
    };
    if (!isPublic) doc['_expiresAt'] = new Date(expiresAt * 1000).toISOString();
    return doc;
  }

  async createOrReplace(
    principal: Principal,
    id: string | undefined,
    body: unknown,
    contentType: string | undefined,
    base: string,
  ): Promise<KinveyDoc> {
    requireAccess(principal, 'create');
    if (!isPlainObject(body)) throw MarketplaceError.notAnObject();
    const app = principal.app;
    const now = this.clock.now();
    const fileId = id ?? entityIdOf(body['_id'], now);
    const existing = await this.repository.find(app.appKey, fileId);
    if (existing && !canWrite(principal, existing.doc))
      throw MarketplaceError.insufficient('not the file creator');
    const size = body['size'];
    if (
      size !== undefined &&
      (typeof size !== 'number' || !Number.isInteger(size) || size < 0)
    )
      throw MarketplaceError.badRequest(
        'size must be a whole number of bytes.',
        'size',
      );
    if (typeof size === 'number' && size > this.options.maxUploadBytes)
      throw MarketplaceError.tooLarge(
        `size ${size} exceeds ${this.options.maxUploadBytes} bytes`,
      );
    const mimeType =
      typeof body['mimeType'] === 'string' && body['mimeType'] !== ''
        ? body['mimeType']
        : (contentType ?? 'application/octet-stream');
    // Served as the download's Content-Type: a broken one breaks every download.
    if (!isMediaType(mimeType))
      throw MarketplaceError.badRequest(
        'mimeType must be a media type such as image/png.',
        'mimeType',
      );
    const custom: KinveyDoc = {};
    for (const [key, value] of Object.entries(body))
      if (!SERVER_FIELDS.includes(key)) custom[key] = value;
    const iso = now.toISOString();
    // As for records: only the creator or master changes `_acl` and
    // `_public`; a user granted `_acl.w` replaces the rest.
    const acl = nextAcl(principal, body['_acl'], existing?.doc);
    const creator = String(acl['creator']);
    const isPublic =
      existing && !ownsAcl(principal, existing.doc)
        ? existing.doc['_public'] === true
        : body['_public'] === true;
    const doc: KinveyDoc = {
      ...custom,
      _id: fileId,
      _filename:
        typeof body['_filename'] === 'string' ? body['_filename'] : fileId,
      mimeType,
      _public: isPublic,
      _acl: acl,
      _kmd: {
        ect: existing
          ? ((existing.doc['_kmd'] as { ect?: string })?.ect ?? iso)
          : iso,
        lmt: iso,
      },
    };
    if (typeof size === 'number') doc['size'] = size;
    const stored = await this.repository.save(
      app.appKey,
      fileId,
      doc,
      creator,
      typeof size === 'number' ? size : -1,
      now,
    );
    const expires = Math.floor(now.getTime() / 1000) + DEFAULT_URL_TTL_SECONDS;
    return {
      ...stored.doc,
      _uploadURL: this.url(app, stored, 'upload', base, expires),
      _requiredHeaders: {},
      _expiresAt: new Date(expires * 1000).toISOString(),
    };
  }

  async get(
    principal: Principal,
    id: string,
    ttl: number,
    base: string,
  ): Promise<KinveyDoc> {
    requireAccess(principal, 'read');
    const file = await this.repository.find(principal.app.appKey, id);
    if (!file || !canRead(principal, file.doc))
      throw MarketplaceError.blobNotFound(id);
    return this.present(principal.app, file, base, ttl);
  }

  async remove(principal: Principal, id: string): Promise<number> {
    const file = await this.repository.find(principal.app.appKey, id);
    if (!file) throw MarketplaceError.blobNotFound(id);
    if (!canWrite(principal, file.doc))
      throw MarketplaceError.insufficient('not the file creator');
    return (await this.repository.remove(principal.app.appKey, id)) ? 1 : 0;
  }

  /**
   * Expands every file reference in `docs` to the file with its download
   * URL, loading all referenced files in one query. A reference to a file
   * that is gone, or that the principal may not read, stays as stored.
   */
  async expand(
    principal: Principal,
    docs: KinveyDoc[],
    base: string,
    ttl: number,
  ): Promise<KinveyDoc[]> {
    const ids = fileIdsIn(docs);
    if (ids.length === 0) return docs;
    const present = await this.presenter(principal, ids, base, ttl);
    return docs.map(
      (doc) => mapFileRefs(doc, (ref) => present(ref) ?? ref) as KinveyDoc,
    );
  }

  /**
   * `expand` for stored documents as PostgreSQL renders them, returning
   * the JSON array: references are replaced in the text, and only a
   * document whose references the text cannot show exactly is parsed.
   */
  async expandTexts(
    principal: Principal,
    texts: readonly string[],
    base: string,
    ttl: number,
  ): Promise<string> {
    const app = principal.app;
    const found = texts.map((text) => {
      const refs = storedRefsInText(text);
      return refs
        ? { text, refs }
        : { text, doc: JSON.parse(text) as KinveyDoc };
    });
    const ids = new Set<string>();
    for (const item of found)
      for (const id of item.refs?.map((ref) => ref._id) ??
        fileIdsIn([item.doc]))
        ids.add(id);
    if (ids.size === 0) return `[${texts.join(',')}]`;
    const files = new Map(
      (
        await this.repository.findManyTexts(
          app.appKey,
          [...ids],
          readerOf(principal),
        )
      ).map((file) => [file.id, file]),
    );
    const expansion = (ref: FileRef): KinveyDoc | undefined => {
      const file = files.get(ref._id);
      if (!file) return undefined;
      const doc = JSON.parse(file.docText) as KinveyDoc;
      const presented = this.present(app, { ...file, doc }, base, ttl);
      return { ...presented, _type: ref._type };
    };
    // A public file's expansion never expires: the same for every listing
    // of this version of it, so it is rendered once for all of them; a
    // private one (its URL expires from now) once for this listing.
    const listing = new Map<string, string>();
    const render = (ref: FileRef): string | undefined => {
      const file = files.get(ref._id);
      if (!file) return undefined;
      const cache = file.isPublic ? this.rendered : listing;
      const key = `${app.appKey}\n${ref._id}\n${ref._type}\n${file.version}\n${base}`;
      let text = cache.get(key);
      if (text === undefined) {
        text = JSON.stringify(expansion(ref));
        cache.set(key, text);
      }
      return text;
    };
    const parts = found.map((item) =>
      item.refs
        ? replaceRefsInText(item.text, item.refs, render)
        : JSON.stringify(mapFileRefs(item.doc, (ref) => expansion(ref) ?? ref)),
    );
    return `[${parts.join(',')}]`;
  }

  /**
   * Loads the files the principal may read; returns each reference's
   * expansion (undefined if gone or not readable).
   */
  private async presenter(
    principal: Principal,
    ids: readonly string[],
    base: string,
    ttl: number,
  ): Promise<(ref: FileRef) => KinveyDoc | undefined> {
    const app = principal.app;
    const files = new Map(
      (
        await this.repository.findMany(app.appKey, ids, readerOf(principal))
      ).map((file) => [file.id, file]),
    );
    return (ref) => {
      const file = files.get(ref._id);
      return file
        ? { ...this.present(app, file, base, ttl), _type: ref._type }
        : undefined;
    };
  }

  /**
   * Checks that the principal may read every file `docs` reference (400
   * otherwise): the same answer for a file that does not exist and one it
   * may not read, so a write tells nothing about the files of others.
   * References `kept` already holds (the record being replaced) stay
   * allowed: a user granted `_acl.w` updates a record as read.
   */
  async checkRefs(
    principal: Principal,
    docs: readonly KinveyDoc[],
    kept?: KinveyDoc,
  ): Promise<void> {
    const allowed = new Set(kept ? fileIdsIn([kept]) : []);
    const ids = fileIdsIn(docs).filter((id) => !allowed.has(id));
    if (ids.length === 0) return;
    const found = new Set(
      (
        await this.repository.findMany(
          principal.app.appKey,
          ids,
          readerOf(principal),
        )
      ).map((f) => f.id),
    );
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0)
      throw MarketplaceError.badRequest(
        'The record references files that do not exist in this app.',
        missing.join(', '),
      );
  }
}
