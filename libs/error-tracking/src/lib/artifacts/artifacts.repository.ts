import { Injectable } from '@nestjs/common';

import { AccessLevel } from '../common/error-tracking.constants';
import type { Transaction } from '../persistence/error-tracking.database';
import { ErrorTrackingRepository } from '../persistence/error-tracking-repository';
import type { ArtifactBundle } from './artifact-bundle';

/** Namespace of the per-uploader advisory lock around the chunk quota. */
const CHUNK_LOCK_NAMESPACE = 0x43_48_4e_4b; // "CHNK"

export interface Chunk {
  /** SHA-1 of `data`, 40 lowercase hex. */
  readonly checksum: string;
  readonly data: Buffer;
}

/** What an event's frames look stored files up by. */
export interface EventArtifactsQuery {
  readonly debugIds: readonly string[];
  /** The event's release (null: debug ids only) and dist. */
  readonly release: string | null;
  readonly dist: string | null;
  /** Frame URLs and their `~/` forms. */
  readonly urls: readonly string[];
}

/** A stored file an event's frames may need, without its content. */
export interface ArtifactIndexEntry {
  readonly id: number;
  readonly type: string;
  readonly url: string;
  readonly debugId: string | null;
  /** The map of a minified source, relative to it (the `sourcemap` header). */
  readonly sourcemap: string | null;
  /** Whether it belongs to the queried release and dist. */
  readonly inRelease: boolean;
}

export interface ReleaseRecord {
  readonly id: number;
  readonly projectId: number;
  readonly version: string;
  readonly ref: string | null;
  readonly url: string | null;
  readonly dateCreated: Date;
  readonly dateStarted: Date | null;
  readonly dateReleased: Date | null;
}

interface ReleaseRow {
  id: number;
  project_id: number;
  version: string;
  ref: string | null;
  url: string | null;
  date_created: Date;
  date_started: Date | null;
  date_released: Date | null;
}

function toRelease(row: ReleaseRow): ReleaseRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    version: row.version,
    ref: row.ref,
    url: row.url,
    dateCreated: row.date_created,
    dateStarted: row.date_started,
    dateReleased: row.date_released,
  };
}

const RELEASE_COLUMNS =
  'id, project_id, version, ref, url, date_created, date_started, date_released';

/** Chunks, artifact bundles and their files, releases (sentry-cli's uploads). */
@Injectable()
export class ArtifactsRepository extends ErrorTrackingRepository {
  /** Whether the user may maintain some project (uploads need one). */
  async maintainsAnyProject(userId: number): Promise<boolean> {
    const [row] = await this.sql.rows<{ found: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM error_tracking.project_members
         WHERE user_id = $1 AND access_level >= $2) AS found`,
      [userId, AccessLevel.Maintainer],
    );
    return row?.found === true;
  }

  /**
   * Stores chunks of one uploader unless its pending chunks would pass
   * `quotaBytes`; returns false (nothing stored) then.
   */
  storeChunks(
    userId: number,
    chunks: readonly Chunk[],
    quotaBytes: number,
    now: Date,
  ): Promise<boolean> {
    return this.sql.transaction(async (tx) => {
      await tx.rows('SELECT pg_advisory_xact_lock($1, $2)', [
        CHUNK_LOCK_NAMESPACE,
        userId,
      ]);
      const [pending] = await tx.rows<{ bytes: string }>(
        `SELECT coalesce(sum(size), 0) AS bytes FROM error_tracking.artifact_chunks
          WHERE user_id = $1`,
        [userId],
      );
      const adding = chunks.reduce((sum, c) => sum + c.data.length, 0);
      if (Number(pending?.bytes ?? 0) + adding > quotaBytes) return false;
      for (const chunk of chunks)
        await tx.rows(
          `INSERT INTO error_tracking.artifact_chunks (user_id, checksum, data, size, created_at)
           VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
          [userId, chunk.checksum, chunk.data, chunk.data.length, now],
        );
      return true;
    });
  }

  /** Which of these chunks the uploader has stored. */
  async presentChunks(
    userId: number,
    checksums: readonly string[],
  ): Promise<Set<string>> {
    const rows = await this.sql.rows<{ checksum: string }>(
      `SELECT checksum FROM error_tracking.artifact_chunks
        WHERE user_id = $1 AND checksum = ANY($2::text[])`,
      [userId, checksums],
    );
    return new Set(rows.map((r) => r.checksum));
  }

  async loadChunks(
    userId: number,
    checksums: readonly string[],
  ): Promise<Map<string, Buffer>> {
    const rows = await this.sql.rows<{ checksum: string; data: Buffer }>(
      `SELECT checksum, data FROM error_tracking.artifact_chunks
        WHERE user_id = $1 AND checksum = ANY($2::text[])`,
      [userId, checksums],
    );
    return new Map(rows.map((r) => [r.checksum, r.data]));
  }

  /** The projects among these that already hold the bundle. */
  async projectsWithBundle(
    projectIds: readonly number[],
    checksum: string,
  ): Promise<Set<number>> {
    const rows = await this.sql.rows<{ project_id: number }>(
      `SELECT project_id FROM error_tracking.artifact_bundles
        WHERE checksum = $1 AND project_id = ANY($2::int[])`,
      [checksum, projectIds],
    );
    return new Set(rows.map((r) => r.project_id));
  }

  /**
   * Stores the bundle and its files for each project (once: a bundle
   * already there is kept) and drops the uploader's chunks it was made of.
   */
  storeBundle(input: {
    readonly projectIds: readonly number[];
    readonly checksum: string;
    readonly size: number;
    readonly bundle: ArtifactBundle;
    readonly release: string | null;
    readonly dist: string | null;
    readonly userId: number;
    readonly chunks: readonly string[];
    readonly now: Date;
  }): Promise<void> {
    return this.sql.transaction(async (tx) => {
      for (const projectId of input.projectIds)
        await this.insertBundle(projectId, input, tx);
      await tx.rows(
        `DELETE FROM error_tracking.artifact_chunks
          WHERE user_id = $1 AND checksum = ANY($2::text[])`,
        [input.userId, input.chunks],
      );
    });
  }

  private async insertBundle(
    projectId: number,
    input: Parameters<ArtifactsRepository['storeBundle']>[0],
    tx: Transaction,
  ): Promise<void> {
    const [bundle] = await tx.rows<{ id: number }>(
      `INSERT INTO error_tracking.artifact_bundles
         (project_id, checksum, bundle_id, release, dist, size, file_count, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (project_id, checksum) DO NOTHING RETURNING id`,
      [
        projectId,
        input.checksum,
        input.bundle.bundleId,
        input.release,
        input.dist,
        input.size,
        input.bundle.files.length,
        input.now,
      ],
    );
    if (!bundle) return;
    for (const file of input.bundle.files)
      await tx.rows(
        `INSERT INTO error_tracking.artifact_files
           (bundle_id, project_id, type, url, debug_id, release, dist, sourcemap, content)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          bundle.id,
          projectId,
          file.type,
          file.url,
          file.debugId,
          input.release,
          input.dist,
          file.sourcemap,
          file.content,
        ],
      );
  }

  /**
   * Every stored file an event's frames may need, in one query, newest
   * first, without content: the files with one of these debug ids, and the
   * release's files at one of these `~/` URLs plus its source maps (a
   * minified file names its map relative to itself).
   */
  async eventArtifacts(
    projectId: number,
    wanted: EventArtifactsQuery,
  ): Promise<ArtifactIndexEntry[]> {
    const rows = await this.sql.rows<{
      id: number;
      type: string;
      url: string;
      debug_id: string | null;
      sourcemap: string | null;
      in_release: boolean;
    }>(
      `SELECT id, type, url, debug_id::text AS debug_id, sourcemap,
              (release = $3 AND dist IS NOT DISTINCT FROM $4) AS in_release
         FROM error_tracking.artifact_files
        WHERE project_id = $1
          AND ((debug_id = ANY($2::uuid[])
                AND type IN ('source_map', 'minified_source'))
            OR (release = $3 AND dist IS NOT DISTINCT FROM $4
                AND (url = ANY($5::text[]) OR type = 'source_map')))
        ORDER BY id DESC`,
      [projectId, wanted.debugIds, wanted.release, wanted.dist, wanted.urls],
    );
    return rows.map((r) => ({
      id: r.id,
      type: r.type,
      url: r.url,
      debugId: r.debug_id,
      sourcemap: r.sourcemap,
      inRelease: r.in_release === true,
    }));
  }

  /** The content of these files of the project, by id. */
  async artifactContents(
    projectId: number,
    ids: readonly number[],
  ): Promise<Map<number, Buffer>> {
    const rows = await this.sql.rows<{ id: number; content: Buffer }>(
      `SELECT id, content FROM error_tracking.artifact_files
        WHERE project_id = $1 AND id = ANY($2::int[])`,
      [projectId, ids],
    );
    return new Map(rows.map((r) => [r.id, r.content]));
  }

  /** Creates the release, or records a later `dateStarted` on the existing one. */
  async upsertRelease(
    projectId: number,
    version: string,
    fields: { ref?: string; url?: string; dateStarted?: Date },
    now: Date,
  ): Promise<ReleaseRecord> {
    const [row] = await this.sql.rows<ReleaseRow>(
      `INSERT INTO error_tracking.releases
         (project_id, version, ref, url, date_created, date_started)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (project_id, version) DO UPDATE SET
         ref = coalesce(EXCLUDED.ref, releases.ref),
         url = coalesce(EXCLUDED.url, releases.url),
         date_started = coalesce(EXCLUDED.date_started, releases.date_started)
       RETURNING ${RELEASE_COLUMNS}`,
      [
        projectId,
        version,
        fields.ref ?? null,
        fields.url ?? null,
        now,
        fields.dateStarted ?? null,
      ],
    );
    return toRelease(row as ReleaseRow);
  }

  /**
   * Updates the release `version` of every project in `projectIds` (each
   * once), or of none when one of them lacks it: then the answer is empty.
   * One statement, so no project's release changes without the others'.
   */
  async updateReleases(
    projectIds: readonly number[],
    version: string,
    fields: { ref?: string; url?: string; dateReleased?: Date },
  ): Promise<ReleaseRecord[]> {
    const rows = await this.sql.rows<ReleaseRow>(
      `UPDATE error_tracking.releases SET
         ref = coalesce($3, ref),
         url = coalesce($4, url),
         date_released = coalesce($5, date_released)
       WHERE project_id = ANY($1::int[]) AND version = $2
         AND (SELECT count(*) FROM error_tracking.releases
               WHERE project_id = ANY($1::int[]) AND version = $2)
             = cardinality($1::int[])
       RETURNING ${RELEASE_COLUMNS}`,
      [
        projectIds,
        version,
        fields.ref ?? null,
        fields.url ?? null,
        fields.dateReleased ?? null,
      ],
    );
    return rows.map(toRelease);
  }
}
