import { Injectable } from '@nestjs/common';

import type { KinveyDoc } from '../kinvey/kinvey-doc';
import { MarketplaceRepository } from '../persistence/marketplace-repository';
import { readableByOrAll } from '../query/acl-conditions';
import type { Reader } from '../query/acl-conditions';
import type { FindSpec } from '../query/find-query';
import { SqlParams } from '../query/sql-params';

export interface StoredFile {
  readonly id: string;
  readonly doc: KinveyDoc;
  /** Declared size in bytes; -1 when the client did not declare one. */
  readonly size: number;
  readonly storedBytes: number;
  readonly generation: number;
  readonly updatedAt: Date;
}

interface FileRow {
  id: string;
  doc: KinveyDoc;
  size: string;
  stored_bytes: string;
  generation: number;
  updated_at: Date;
}

const COLUMNS = 'id, doc, size, stored_bytes, generation, updated_at';

/**
 * The files of `ids` in the app that `reader` may read (all when there is
 * none): condition and parameters.
 */
function byIds(
  appKey: string,
  ids: readonly string[],
  reader: Reader | undefined,
): { where: string; values: unknown[] } {
  const params = new SqlParams(2);
  const readable = readableByOrAll('doc', reader, params);
  return {
    where: `app_key = $1 AND id = ANY($2::text[]) AND ${readable}`,
    values: [appKey, ids, ...params.values],
  };
}

function toFile(row: FileRow): StoredFile {
  return {
    id: row.id,
    doc: row.doc,
    size: Number(row.size),
    storedBytes: Number(row.stored_bytes),
    generation: row.generation,
    updatedAt: row.updated_at,
  };
}

export interface FileText {
  readonly id: string;
  readonly docText: string;
  readonly generation: number;
  /** Changes whenever the file's metadata or bytes are replaced. */
  readonly version: string;
  readonly isPublic: boolean;
}

export type AppendResult =
  | { readonly kind: 'stored'; readonly file: StoredFile }
  | { readonly kind: 'gone' }
  | { readonly kind: 'complete' }
  | { readonly kind: 'offset'; readonly file: StoredFile };

/** File metadata and bytes (chunks in `file_chunks`). */
@Injectable()
export class FilesRepository extends MarketplaceRepository {
  /** Creates or replaces a file's metadata; a replacement drops its bytes. */
  async save(
    appKey: string,
    id: string,
    doc: KinveyDoc,
    creator: string,
    size: number,
    now: Date,
  ): Promise<StoredFile> {
    return this.db.transaction(async (tx) => {
      await tx.rows(
        'DELETE FROM marketplace.file_chunks WHERE app_key = $1 AND file_id = $2',
        [appKey, id],
      );
      const rows = await tx.rows<FileRow>(
        `INSERT INTO marketplace.files AS f (app_key, id, doc, creator, size, stored_bytes, generation, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, 0, 1, $6, $6)
         ON CONFLICT (app_key, id) DO UPDATE SET doc = $3, size = $5, stored_bytes = 0,
           generation = f.generation + 1, updated_at = $6
         RETURNING ${COLUMNS}`,
        [appKey, id, doc, creator, size, now],
      );
      return toFile(rows[0] as FileRow);
    });
  }

  async find(appKey: string, id: string): Promise<StoredFile | undefined> {
    const rows = await this.sql.rows<FileRow>(
      `SELECT ${COLUMNS} FROM marketplace.files WHERE app_key = $1 AND id = $2`,
      [appKey, id],
    );
    return rows[0] ? toFile(rows[0]) : undefined;
  }

  /**
   * Several files for a listing's expansion (those `reader` may read): each
   * document as JSON text, with what identifies that version of it (a
   * replacement bumps both).
   */
  async findManyTexts(
    appKey: string,
    ids: readonly string[],
    reader: Reader | undefined,
  ): Promise<FileText[]> {
    if (ids.length === 0) return [];
    const { where, values } = byIds(appKey, ids, reader);
    // Prepared: every listing with file references runs it.
    const rows = await this.sql.prepared<{
      id: string;
      doc: string;
      generation: number;
      version: string;
      public: boolean;
    }>(
      'mkt_files_by_ids',
      `SELECT id, doc::text AS doc, generation, doc -> '_public' = 'true'::jsonb AS public,
              generation || '.' || (extract(epoch FROM updated_at) * 1000)::bigint AS version
         FROM marketplace.files WHERE ${where}`,
      values,
    );
    return rows.map((row) => ({
      id: row.id,
      docText: row.doc,
      generation: row.generation,
      version: row.version,
      isPublic: row.public,
    }));
  }

  /**
   * Several files in one query (expanding the references of a response),
   * only those `reader` may read when one is given.
   */
  async findMany(
    appKey: string,
    ids: readonly string[],
    reader: Reader | undefined,
  ): Promise<StoredFile[]> {
    if (ids.length === 0) return [];
    const { where, values } = byIds(appKey, ids, reader);
    const rows = await this.sql.prepared<FileRow>(
      'mkt_files_by_ids',
      `SELECT ${COLUMNS} FROM marketplace.files WHERE ${where}`,
      values,
    );
    return rows.map(toFile);
  }

  /** File documents matching a Kinvey find (filter, sort, limit, skip). */
  list(
    appKey: string,
    find: Pick<FindSpec, 'readableBy' | 'filter' | 'sort' | 'limit' | 'skip'>,
  ): Promise<KinveyDoc[]> {
    return this.db.find({
      table: 'files',
      scope: { app_key: appKey },
      ...find,
    });
  }

  async remove(appKey: string, id: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx.rows(
        'DELETE FROM marketplace.file_chunks WHERE app_key = $1 AND file_id = $2',
        [appKey, id],
      );
      const rows = await tx.rows(
        'DELETE FROM marketplace.files WHERE app_key = $1 AND id = $2 RETURNING id',
        [appKey, id],
      );
      return rows.length > 0;
    });
  }

  /**
   * Deletes every file of the app with its bytes; how many files. The
   * files go first: an upload under way holds its file's row, so it ends
   * before this deletes, and one after it finds no file to write to.
   */
  async removeAll(appKey: string): Promise<number> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.rows<{ n: number }>(
        `WITH gone AS (DELETE FROM marketplace.files WHERE app_key = $1 RETURNING 1)
         SELECT count(*)::int AS n FROM gone`,
        [appKey],
      );
      await tx.rows('DELETE FROM marketplace.file_chunks WHERE app_key = $1', [
        appKey,
      ]);
      return rows[0]?.n ?? 0;
    });
  }

  /**
   * Appends bytes at `offset` (which must be the bytes stored so far) to
   * generation `generation` of the file; `restart` first drops what was
   * stored (a whole-body upload). `size` (when >= 0) fixes the declared size.
   * Once the file holds all its bytes nothing more is written.
   */
  async append(
    appKey: string,
    id: string,
    generation: number,
    {
      offset,
      data,
      restart,
      size,
    }: { offset: number; data: Buffer; restart: boolean; size: number },
  ): Promise<AppendResult> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.rows<FileRow>(
        `SELECT ${COLUMNS} FROM marketplace.files WHERE app_key = $1 AND id = $2 FOR UPDATE`,
        [appKey, id],
      );
      const current = rows[0] ? toFile(rows[0]) : undefined;
      if (!current || current.generation !== generation)
        return { kind: 'gone' };
      if (current.size >= 0 && current.storedBytes >= current.size)
        return { kind: 'complete' };
      if (restart)
        await tx.rows(
          'DELETE FROM marketplace.file_chunks WHERE app_key = $1 AND file_id = $2',
          [appKey, id],
        );
      else if (current.storedBytes !== offset)
        return { kind: 'offset', file: current };
      if (data.length > 0)
        await tx.rows(
          'INSERT INTO marketplace.file_chunks (app_key, file_id, "offset", data) VALUES ($1, $2, $3, $4)',
          [appKey, id, offset, data],
        );
      const updated = await tx.rows<FileRow>(
        `UPDATE marketplace.files SET stored_bytes = $3, size = CASE WHEN $4 >= 0 THEN $4 ELSE size END,
                doc = CASE WHEN $4 >= 0 THEN jsonb_set(doc, '{size}', to_jsonb($4::bigint)) ELSE doc END
          WHERE app_key = $1 AND id = $2 RETURNING ${COLUMNS}`,
        [appKey, id, offset + data.length, size],
      );
      return { kind: 'stored', file: toFile(updated[0] as FileRow) };
    });
  }

  /** Bytes `start..end` (inclusive) of a file. */
  async read(
    appKey: string,
    id: string,
    start: number,
    end: number,
  ): Promise<Buffer> {
    const rows = await this.sql.rows<{ offset: string; data: Buffer }>(
      `SELECT "offset", data FROM marketplace.file_chunks
        WHERE app_key = $1 AND file_id = $2 AND "offset" <= $4 AND "offset" + length(data) > $3
        ORDER BY "offset"`,
      [appKey, id, start, end],
    );
    const parts = rows.map((row) => {
      const offset = Number(row.offset);
      const from = Math.max(0, start - offset);
      const to = Math.min(row.data.length, end + 1 - offset);
      return row.data.subarray(from, to);
    });
    return Buffer.concat(parts);
  }
}
