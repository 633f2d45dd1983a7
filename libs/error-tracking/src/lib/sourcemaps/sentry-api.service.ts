import { createHash } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import type { Caller } from '../accounts/account.types';
import {
  AccessLevel,
  ERROR_TRACKING_OPTIONS,
  MIB,
} from '../common/error-tracking.constants';
import { ErrorTrackingError } from '../common/error-tracking.errors';
import type { ErrorTrackingModuleOptions } from '../common/error-tracking.options';
import { ProjectAccessService } from '../projects/project-access.service';
import type { ProjectRecord } from '../projects/project.types';
import { isJsonObject } from '../sentry-event/event-json';
import {
  ArtifactBundleError,
  parseArtifactBundle,
} from '../artifacts/artifact-bundle';
import { ArtifactsRepository } from '../artifacts/artifacts.repository';
import type { Chunk, ReleaseRecord } from '../artifacts/artifacts.repository';
import type { ChunkLimits } from './chunk-upload';
import { sentryNotFound } from './sentry-api.errors';

/** What sentry-cli is told about chunk uploads (Sentry's defaults). */
export const CHUNK_SIZE = 8 * MIB;
export const CHUNKS_PER_REQUEST = 64;
export const MAX_REQUEST_SIZE = 32 * MIB;
/** Everything Sentry accepts; sentry-cli 2.x needs the artifact bundle kinds listed. */
const ACCEPT = [
  'debug_files',
  'release_files',
  'pdbs',
  'sources',
  'bcsymbolmaps',
  'il2cpp',
  'portablepdbs',
  'artifact_bundles',
  'proguard',
  'artifact_bundles_v2',
];
const SHA1 = /^[0-9a-f]{40}$/;
const MAX_CHUNKS_PER_BUNDLE = 10_000;
const MAX_PROJECTS = 100;
const MAX_VERSION = 200;

export interface ChunkUploadOptions {
  url: string;
  chunkSize: number;
  chunksPerRequest: number;
  maxFileSize: number;
  maxRequestSize: number;
  concurrency: number;
  hashAlgorithm: 'sha1';
  compression: string[];
  accept: string[];
}

export type AssembleState = 'ok' | 'created' | 'not_found' | 'error';

export interface AssembleResult {
  state: AssembleState;
  detail?: string | null;
  missingChunks: string[];
}

/** Sentry's release entity (what sentry-cli reads `version` and `dateCreated` from). */
export interface SentryRelease {
  id: number;
  version: string;
  shortVersion: string;
  ref: string | null;
  url: string | null;
  dateCreated: string;
  dateReleased: string | null;
  dateStarted: string | null;
  lastEvent: null;
  newGroups: number;
  projects: Array<{ id: number; slug: string; name: string }>;
}

function invalid(message: string): ErrorTrackingError {
  return ErrorTrackingError.badRequest(message);
}

function optionalText(
  body: Record<string, unknown>,
  field: string,
  max = MAX_VERSION,
): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length > max)
    throw invalid(`${field}: not a valid string`);
  return value;
}

function optionalDate(
  body: Record<string, unknown>,
  field: string,
): Date | undefined {
  const text = optionalText(body, field, 64);
  if (text === undefined) return undefined;
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) throw invalid(`${field}: not a valid date`);
  return date;
}

/** Sentry's rule: no slashes or control characters, not `.`, `..` or blank. */
export function validVersion(value: unknown): string {
  if (
    typeof value !== 'string' ||
    value.length === 0 ||
    value.length > MAX_VERSION ||
    value.trim() !== value ||
    value === '.' ||
    value === '..' ||
    /[/\\\p{Cc}]/u.test(value)
  )
    throw invalid('version: not a valid release version');
  return value;
}

function projectList(value: unknown, required: boolean): string[] {
  if (value === undefined || value === null) {
    if (required) throw invalid('projects: this field is required');
    return [];
  }
  if (
    !Array.isArray(value) ||
    value.length > MAX_PROJECTS ||
    (required && value.length === 0) ||
    !value.every(
      (p) =>
        (typeof p === 'string' && p !== '' && p.length <= 255) ||
        (typeof p === 'number' && Number.isSafeInteger(p)),
    )
  )
    throw invalid('projects: a list of project ids or paths');
  return [...new Set(value.map(String))];
}

function shortVersion(version: string): string {
  return /^[0-9a-f]{40}$/i.test(version) ? version.slice(0, 12) : version;
}

function toSentryRelease(
  release: ReleaseRecord,
  projects: readonly ProjectRecord[],
): SentryRelease {
  return {
    id: release.id,
    version: release.version,
    shortVersion: shortVersion(release.version),
    ref: release.ref,
    url: release.url,
    dateCreated: release.dateCreated.toISOString(),
    dateReleased: release.dateReleased?.toISOString() ?? null,
    dateStarted: release.dateStarted?.toISOString() ?? null,
    lastEvent: null,
    newGroups: 0,
    projects: projects.map((p) => ({ id: p.id, slug: p.path, name: p.name })),
  };
}

/**
 * The part of Sentry's web API that `sentry-cli sourcemaps upload` and
 * `releases new/finalize` use: chunk upload, artifact bundle assembly,
 * releases. Organisations do not exist here (any slug is accepted); every
 * project named must be one the token's user can maintain, else it is
 * reported as not existing (Sentry's 404), as the fixtures show.
 */
@Injectable()
export class SentryApiService {
  constructor(
    private readonly artifacts: ArtifactsRepository,
    private readonly access: ProjectAccessService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ERROR_TRACKING_OPTIONS)
    private readonly options: ErrorTrackingModuleOptions,
  ) {}

  get chunkLimits(): ChunkLimits {
    return {
      chunkBytes: CHUNK_SIZE,
      chunksPerRequest: CHUNKS_PER_REQUEST,
      requestBytes: MAX_REQUEST_SIZE,
    };
  }

  /** Uploads need a user who maintains some project; others see no organisation. */
  async requireUploader(caller: Caller): Promise<void> {
    if (caller.user.isAdmin) return;
    if (!(await this.artifacts.maintainsAnyProject(caller.user.id)))
      throw sentryNotFound();
  }

  async chunkUploadOptions(
    caller: Caller,
    chunkUrl: string,
  ): Promise<ChunkUploadOptions> {
    await this.requireUploader(caller);
    return {
      url: chunkUrl,
      chunkSize: CHUNK_SIZE,
      chunksPerRequest: CHUNKS_PER_REQUEST,
      maxFileSize: this.options.maxArtifactBytes,
      maxRequestSize: MAX_REQUEST_SIZE,
      concurrency: 1,
      hashAlgorithm: 'sha1',
      compression: ['gzip'],
      accept: ACCEPT,
    };
  }

  /** Keeps uploaded chunks until assembly (a quota of two bundles per uploader). */
  async storeChunks(caller: Caller, chunks: readonly Chunk[]): Promise<void> {
    await this.requireUploader(caller);
    if (chunks.length === 0) return;
    const stored = await this.artifacts.storeChunks(
      caller.user.id,
      chunks,
      2 * this.options.maxArtifactBytes + CHUNK_SIZE,
      this.clock.now(),
    );
    if (!stored)
      throw ErrorTrackingError.badRequest(
        'Too many chunks waiting for assembly; assemble or retry later.',
      );
  }

  /** The projects of a request, each maintained by the caller (else 404). */
  async maintainedProjects(
    caller: Caller,
    idsOrPaths: readonly string[],
  ): Promise<ProjectRecord[]> {
    const projects: ProjectRecord[] = [];
    for (const idOrPath of idsOrPaths) {
      try {
        const { project } = await this.access.require(
          caller,
          idOrPath,
          AccessLevel.Maintainer,
        );
        if (!projects.some((p) => p.id === project.id)) projects.push(project);
      } catch (error) {
        if (error instanceof ErrorTrackingError) throw sentryNotFound();
        throw error;
      }
    }
    return projects;
  }

  /**
   * `artifactbundle/assemble/`: asked before the upload (which chunks are
   * missing), after it (assembles: `created`) and when polled (`ok`).
   */
  async assemble(caller: Caller, body: unknown): Promise<AssembleResult> {
    if (!isJsonObject(body)) throw invalid('Expected a JSON object.');
    const checksum = body['checksum'];
    const chunks = body['chunks'];
    if (typeof checksum !== 'string' || !SHA1.test(checksum))
      throw invalid('checksum: a SHA-1 in hex');
    if (
      !Array.isArray(chunks) ||
      chunks.length === 0 ||
      chunks.length > MAX_CHUNKS_PER_BUNDLE ||
      !chunks.every((c) => typeof c === 'string' && SHA1.test(c))
    )
      throw invalid('chunks: a list of SHA-1s in hex');
    const chunkList = chunks as string[];
    const version =
      body['version'] == null ? null : validVersion(body['version']);
    const dist = optionalText(body, 'dist') ?? null;
    const projects = await this.maintainedProjects(
      caller,
      projectList(body['projects'], true),
    );

    const projectIds = projects.map((p) => p.id);
    const holding = await this.artifacts.projectsWithBundle(
      projectIds,
      checksum,
    );
    const lacking = projectIds.filter((id) => !holding.has(id));
    if (lacking.length === 0)
      return { state: 'ok', detail: null, missingChunks: [] };

    const unique = [...new Set(chunkList)];
    const present = await this.artifacts.presentChunks(caller.user.id, unique);
    const missing = unique.filter((c) => !present.has(c));
    if (missing.length > 0)
      return { state: 'not_found', missingChunks: missing };

    const stored = await this.artifacts.loadChunks(caller.user.id, unique);
    const limit = this.options.maxArtifactBytes;
    let size = 0;
    for (const c of chunkList) size += stored.get(c)?.length ?? 0;
    if (size > limit)
      return failed(`The bundle is larger than the limit of ${limit} bytes.`);
    const zip = Buffer.concat(chunkList.map((c) => stored.get(c) as Buffer));
    if (createHash('sha1').update(zip).digest('hex') !== checksum)
      return failed('The chunks do not add up to the bundle checksum.');
    let bundle;
    try {
      bundle = parseArtifactBundle(zip, limit);
    } catch (error) {
      if (error instanceof ArtifactBundleError) return failed(error.message);
      throw error;
    }
    await this.artifacts.storeBundle({
      projectIds: lacking,
      checksum,
      size,
      bundle,
      release: version ?? bundle.release,
      dist: dist ?? bundle.dist,
      userId: caller.user.id,
      chunks: unique,
      now: this.clock.now(),
    });
    return { state: 'created', missingChunks: [] };
  }

  /** A release request's body and the projects it names (path or `projects`). */
  private async releaseRequest(
    caller: Caller,
    body: unknown,
    pathProject: string | undefined,
  ): Promise<{ body: Record<string, unknown>; projects: ProjectRecord[] }> {
    if (!isJsonObject(body)) throw invalid('Expected a JSON object.');
    const named =
      pathProject !== undefined
        ? [pathProject]
        : projectList(body['projects'], true);
    return { body, projects: await this.maintainedProjects(caller, named) };
  }

  /** `releases new`: creates the release in each project (201). */
  async createRelease(
    caller: Caller,
    body: unknown,
    pathProject?: string,
  ): Promise<SentryRelease> {
    const { body: json, projects } = await this.releaseRequest(
      caller,
      body,
      pathProject,
    );
    const version = validVersion(json['version']);
    const fields = {
      ref: optionalText(json, 'ref'),
      url: optionalText(json, 'url', 2_048),
      dateStarted: optionalDate(json, 'dateStarted'),
    };
    const now = this.clock.now();
    let first: ReleaseRecord | undefined;
    for (const project of projects) {
      const release = await this.artifacts.upsertRelease(
        project.id,
        version,
        fields,
        now,
      );
      first ??= release;
    }
    return toSentryRelease(first as ReleaseRecord, projects);
  }

  /**
   * `releases finalize` (and other updates): 404 where the release is
   * unknown, and then no project's release changes.
   */
  async updateRelease(
    caller: Caller,
    version: string,
    body: unknown,
    pathProject?: string,
  ): Promise<SentryRelease> {
    validVersion(version);
    const { body: json, projects } = await this.releaseRequest(
      caller,
      body,
      pathProject,
    );
    const fields = {
      ref: optionalText(json, 'ref'),
      url: optionalText(json, 'url', 2_048),
      dateReleased: optionalDate(json, 'dateReleased'),
    };
    const updated = await this.artifacts.updateReleases(
      projects.map((p) => p.id),
      version,
      fields,
    );
    const first = updated.find((r) => r.projectId === projects[0]?.id);
    if (updated.length < projects.length || !first) throw sentryNotFound();
    return toSentryRelease(first, projects);
  }
}

function failed(detail: string): AssembleResult {
  return { state: 'error', detail, missingChunks: [] };
}
