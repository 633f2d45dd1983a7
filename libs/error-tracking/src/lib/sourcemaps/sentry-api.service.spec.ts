import { createHash } from 'node:crypto';

import { CLOCK, FixedClock } from '@quitanda/kernel';
import { newTestService } from '@quitanda/testing';

import { makeZip } from '../../testing/make-zip';
import { callerOf, projectRecord } from '../../testing/records';
import type { ReleaseRecord } from '../artifacts/artifacts.repository';
import { ArtifactsRepository } from '../artifacts/artifacts.repository';
import {
  AccessLevel,
  ERROR_TRACKING_OPTIONS,
} from '../common/error-tracking.constants';
import {
  ErrorTrackingError,
  ErrorTrackingErrorCode,
} from '../common/error-tracking.errors';
import { ProjectAccessService } from '../projects/project-access.service';
import type { ProjectRecord } from '../projects/project.types';
import { SENTRY_NOT_FOUND } from './sentry-api.errors';
import {
  CHUNK_SIZE,
  SentryApiService,
  validVersion,
} from './sentry-api.service';

const NOW = new Date('2026-06-01T10:00:00.000Z');
const MAX_ARTIFACT_BYTES = 1024 * 1024;
const SHOP = projectRecord({ id: 3, path: 'shop', name: 'Shop' });
const BLOG = projectRecord({ id: 4, path: 'blog', name: 'Blog' });
const uploader = callerOf({ id: 7 });

function sha1(data: Buffer): string {
  return createHash('sha1').update(data).digest('hex');
}

/** sentry-cli's bundle of one minified file, split into two chunks. */
function bundle(manifest: Record<string, unknown> = {}) {
  const zip = makeZip([
    {
      name: 'manifest.json',
      data: Buffer.from(
        JSON.stringify({
          files: { 'files/a.js': { url: '~/a.js', type: 'minified_source' } },
          release: 'from-bundle',
          dist: 'web',
          ...manifest,
        }),
      ),
    },
    { name: 'files/a.js', data: Buffer.from('console.log(1)') },
  ]);
  const parts = [zip.subarray(0, 40), zip.subarray(40)];
  return {
    zip,
    checksum: sha1(zip),
    chunks: parts.map(sha1),
    stored: new Map(parts.map((part) => [sha1(part), part])),
  };
}

function release(projectId: number, version = '1.0'): ReleaseRecord {
  return {
    id: 20 + projectId,
    projectId,
    version,
    ref: null,
    url: null,
    dateCreated: NOW,
    dateStarted: null,
    dateReleased: null,
  };
}

describe('validVersion', () => {
  it("keeps Sentry's rule for release versions", () => {
    expect(validVersion('my-app@1.0.0+build.5')).toBe('my-app@1.0.0+build.5');
    for (const bad of ['', '.', '..', 'a/b', 'a\\b', ' 1.0', 'a\nb', 7])
      expect(() => validVersion(bad)).toThrow(
        'version: not a valid release version',
      );
    expect(() => validVersion('v'.repeat(201))).toThrow();
  });
});

describe('SentryApiService', () => {
  let service: SentryApiService;
  let artifacts: jest.Mocked<ArtifactsRepository>;
  let access: jest.Mocked<ProjectAccessService>;

  async function build(maxArtifactBytes = MAX_ARTIFACT_BYTES): Promise<void> {
    const built = await newTestService(SentryApiService, [
      { provide: CLOCK, useValue: new FixedClock(NOW) },
      { provide: ERROR_TRACKING_OPTIONS, useValue: { maxArtifactBytes } },
    ]);
    service = built.sut;
    artifacts = built.mock(ArtifactsRepository);
    access = built.mock(ProjectAccessService);
    artifacts.maintainsAnyProject.mockResolvedValue(true);
    const byKey: Record<string, ProjectRecord> = {
      '3': SHOP,
      shop: SHOP,
      '4': BLOG,
      blog: BLOG,
    };
    access.require.mockImplementation(async (_, idOrPath) => {
      const project = byKey[idOrPath];
      if (!project) throw ErrorTrackingError.projectNotFound();
      return { project, accessLevel: AccessLevel.Maintainer };
    });
  }

  beforeEach(() => build());

  const notFound = {
    code: ErrorTrackingErrorCode.NotFound,
    message: SENTRY_NOT_FOUND,
  };

  describe('uploads', () => {
    it('tells sentry-cli where and how to upload chunks', async () => {
      await expect(
        service.chunkUploadOptions(uploader, 'https://x/chunk-upload/'),
      ).resolves.toMatchObject({
        url: 'https://x/chunk-upload/',
        chunkSize: CHUNK_SIZE,
        maxFileSize: MAX_ARTIFACT_BYTES,
        hashAlgorithm: 'sha1',
        accept: expect.arrayContaining(['artifact_bundles_v2']),
      });
      expect(artifacts.maintainsAnyProject).toHaveBeenCalledWith(7);
    });

    it('answers "does not exist" to a user who maintains no project, and lets an admin through unasked', async () => {
      artifacts.maintainsAnyProject.mockResolvedValue(false);
      await expect(
        service.chunkUploadOptions(uploader, 'https://x/'),
      ).rejects.toMatchObject(notFound);
      await expect(
        service.storeChunks(uploader, [
          { checksum: 'a'.repeat(40), data: Buffer.from('a') },
        ]),
      ).rejects.toMatchObject(notFound);
      expect(artifacts.storeChunks).not.toHaveBeenCalled();

      artifacts.maintainsAnyProject.mockClear();
      await expect(
        service.requireUploader(callerOf({ isAdmin: true })),
      ).resolves.toBeUndefined();
      expect(artifacts.maintainsAnyProject).not.toHaveBeenCalled();
    });

    it("stores chunks under the uploader's quota of two bundles", async () => {
      const chunks = [{ checksum: 'a'.repeat(40), data: Buffer.from('a') }];
      artifacts.storeChunks.mockResolvedValue(true);
      await service.storeChunks(uploader, chunks);
      expect(artifacts.storeChunks).toHaveBeenCalledWith(
        7,
        chunks,
        2 * MAX_ARTIFACT_BYTES + CHUNK_SIZE,
        NOW,
      );

      artifacts.storeChunks.mockResolvedValue(false);
      await expect(service.storeChunks(uploader, chunks)).rejects.toMatchObject(
        {
          code: ErrorTrackingErrorCode.BadRequest,
          message: expect.stringMatching(/^Too many chunks/),
        },
      );
    });

    it('stores nothing for an empty upload', async () => {
      await service.storeChunks(uploader, []);
      expect(artifacts.storeChunks).not.toHaveBeenCalled();
    });
  });

  describe('maintainedProjects', () => {
    it('asks for maintainer access to each project and names each once', async () => {
      await expect(
        service.maintainedProjects(uploader, ['3', 'shop', 'blog']),
      ).resolves.toEqual([SHOP, BLOG]);
      expect(access.require).toHaveBeenCalledWith(
        uploader,
        'blog',
        AccessLevel.Maintainer,
      );
    });

    it('reports a project the caller may not maintain as not existing', async () => {
      access.require.mockRejectedValueOnce(ErrorTrackingError.forbidden());
      await expect(
        service.maintainedProjects(uploader, ['shop']),
      ).rejects.toMatchObject(notFound);
      await expect(
        service.maintainedProjects(uploader, ['shop', 'nope']),
      ).rejects.toMatchObject(notFound);
    });

    it('lets a failure other than access through', async () => {
      const failure = new Error('database is down');
      access.require.mockRejectedValueOnce(failure);
      await expect(service.maintainedProjects(uploader, ['shop'])).rejects.toBe(
        failure,
      );
    });
  });

  describe('assemble', () => {
    const b = bundle();
    const body = {
      checksum: b.checksum,
      chunks: b.chunks,
      projects: ['shop', 'blog'],
    };

    beforeEach(() => {
      artifacts.projectsWithBundle.mockResolvedValue(new Set());
      artifacts.presentChunks.mockResolvedValue(new Set(b.chunks));
      artifacts.loadChunks.mockResolvedValue(b.stored);
    });

    it.each([
      ['a body that is no object', [], 'Expected a JSON object.'],
      [
        'a checksum that is no SHA-1',
        { ...body, checksum: 'abc' },
        'checksum: a SHA-1 in hex',
      ],
      ['no chunks', { ...body, chunks: [] }, 'chunks: a list of SHA-1s in hex'],
      [
        'a chunk that is no SHA-1',
        { ...body, chunks: ['x'] },
        'chunks: a list of SHA-1s in hex',
      ],
      [
        'a bad version',
        { ...body, version: '../x' },
        'version: not a valid release version',
      ],
      [
        'a dist over 200 characters',
        { ...body, dist: 'd'.repeat(201) },
        'dist: not a valid string',
      ],
      [
        'no projects',
        { ...body, projects: undefined },
        'projects: this field is required',
      ],
      [
        'an empty project list',
        { ...body, projects: [] },
        'projects: a list of project ids or paths',
      ],
      [
        'a project that is neither id nor path',
        { ...body, projects: [{}] },
        'projects: a list of project ids or paths',
      ],
    ])('refuses %s as a bad request', async (_, request, message) => {
      await expect(service.assemble(uploader, request)).rejects.toMatchObject({
        code: ErrorTrackingErrorCode.BadRequest,
        message,
      });
      expect(artifacts.storeBundle).not.toHaveBeenCalled();
    });

    it('answers ok when every project holds the bundle already', async () => {
      artifacts.projectsWithBundle.mockResolvedValue(new Set([3, 4]));
      await expect(service.assemble(uploader, body)).resolves.toEqual({
        state: 'ok',
        detail: null,
        missingChunks: [],
      });
      expect(artifacts.projectsWithBundle).toHaveBeenCalledWith(
        [3, 4],
        b.checksum,
      );
      expect(artifacts.presentChunks).not.toHaveBeenCalled();
    });

    it('names the chunks still missing, each once', async () => {
      const [first, second] = b.chunks as [string, string];
      artifacts.presentChunks.mockResolvedValue(new Set([first]));
      await expect(
        service.assemble(uploader, {
          ...body,
          chunks: [first, second, second],
        }),
      ).resolves.toEqual({ state: 'not_found', missingChunks: [second] });
      expect(artifacts.presentChunks).toHaveBeenCalledWith(7, [first, second]);
    });

    it('stores the bundle for the projects lacking it, under the release of the request', async () => {
      artifacts.projectsWithBundle.mockResolvedValue(new Set([3]));
      await expect(
        service.assemble(uploader, { ...body, version: '2.0', dist: 'ios' }),
      ).resolves.toEqual({ state: 'created', missingChunks: [] });
      expect(artifacts.loadChunks).toHaveBeenCalledWith(7, b.chunks);
      expect(artifacts.storeBundle).toHaveBeenCalledWith({
        projectIds: [4],
        checksum: b.checksum,
        size: b.zip.length,
        bundle: expect.objectContaining({
          release: 'from-bundle',
          files: [expect.objectContaining({ url: '~/a.js' })],
        }),
        release: '2.0',
        dist: 'ios',
        userId: 7,
        chunks: b.chunks,
        now: NOW,
      });
    });

    it("takes the bundle's own release and dist when the request has none", async () => {
      await service.assemble(uploader, body);
      expect(artifacts.storeBundle).toHaveBeenCalledWith(
        expect.objectContaining({
          projectIds: [3, 4],
          release: 'from-bundle',
          dist: 'web',
        }),
      );
    });

    it('fails the assembly when the chunks do not add up to the checksum', async () => {
      const [first, second] = b.chunks as [string, string];
      await expect(
        service.assemble(uploader, { ...body, chunks: [second, first] }),
      ).resolves.toEqual({
        state: 'error',
        detail: 'The chunks do not add up to the bundle checksum.',
        missingChunks: [],
      });
      expect(artifacts.storeBundle).not.toHaveBeenCalled();
    });

    it('fails the assembly of a bundle over the size limit', async () => {
      await build(b.zip.length - 1);
      artifacts.projectsWithBundle.mockResolvedValue(new Set());
      artifacts.presentChunks.mockResolvedValue(new Set(b.chunks));
      artifacts.loadChunks.mockResolvedValue(b.stored);
      await expect(service.assemble(uploader, body)).resolves.toEqual({
        state: 'error',
        detail: `The bundle is larger than the limit of ${b.zip.length - 1} bytes.`,
        missingChunks: [],
      });
      expect(artifacts.storeBundle).not.toHaveBeenCalled();
    });

    it('fails the assembly of a zip that is no artifact bundle', async () => {
      const zip = makeZip([{ name: 'a.js', data: Buffer.from('x') }]);
      artifacts.presentChunks.mockResolvedValue(new Set([sha1(zip)]));
      artifacts.loadChunks.mockResolvedValue(new Map([[sha1(zip), zip]]));
      await expect(
        service.assemble(uploader, {
          ...body,
          checksum: sha1(zip),
          chunks: [sha1(zip)],
        }),
      ).resolves.toEqual({
        state: 'error',
        detail: 'Invalid artifact bundle: no manifest.json',
        missingChunks: [],
      });
    });
  });

  describe('releases', () => {
    it('creates the release in each project named and answers it as Sentry does', async () => {
      const version = 'f'.repeat(40);
      artifacts.upsertRelease.mockImplementation(async (projectId) =>
        release(projectId, version),
      );
      await expect(
        service.createRelease(uploader, {
          version,
          projects: ['shop', 4],
          ref: 'main',
          dateStarted: '2026-05-31T00:00:00Z',
        }),
      ).resolves.toEqual({
        id: 23,
        version,
        shortVersion: 'f'.repeat(12),
        ref: null,
        url: null,
        dateCreated: NOW.toISOString(),
        dateReleased: null,
        dateStarted: null,
        lastEvent: null,
        newGroups: 0,
        projects: [
          { id: 3, slug: 'shop', name: 'Shop' },
          { id: 4, slug: 'blog', name: 'Blog' },
        ],
      });
      const fields = {
        ref: 'main',
        url: undefined,
        dateStarted: new Date('2026-05-31T00:00:00Z'),
      };
      expect(artifacts.upsertRelease.mock.calls).toEqual([
        [3, version, fields, NOW],
        [4, version, fields, NOW],
      ]);
    });

    it('creates the release in the project of the path, ignoring the body’s list', async () => {
      artifacts.upsertRelease.mockResolvedValue(release(4));
      const created = await service.createRelease(
        uploader,
        { version: '1.0', projects: ['shop'] },
        'blog',
      );
      expect(created.shortVersion).toBe('1.0');
      expect(artifacts.upsertRelease).toHaveBeenCalledTimes(1);
      expect(artifacts.upsertRelease).toHaveBeenCalledWith(
        4,
        '1.0',
        expect.any(Object),
        NOW,
      );
    });

    it.each([
      ['no object', 'x', 'Expected a JSON object.'],
      ['no projects', { version: '1.0' }, 'projects: this field is required'],
      [
        'a bad version',
        { version: 'a/b', projects: ['shop'] },
        'version: not a valid release version',
      ],
      [
        'a ref that is no string',
        { version: '1.0', projects: ['shop'], ref: 5 },
        'ref: not a valid string',
      ],
      [
        'a start that is no date',
        { version: '1.0', projects: ['shop'], dateStarted: 'soon' },
        'dateStarted: not a valid date',
      ],
    ])('refuses a release with %s', async (_, body, message) => {
      await expect(service.createRelease(uploader, body)).rejects.toMatchObject(
        { code: ErrorTrackingErrorCode.BadRequest, message },
      );
      expect(artifacts.upsertRelease).not.toHaveBeenCalled();
    });

    it('finalizes the release in all the projects named at once', async () => {
      artifacts.updateReleases.mockResolvedValue([release(4), release(3)]);
      const updated = await service.updateRelease(uploader, '1.0', {
        projects: ['shop', 'blog'],
        dateReleased: '2026-06-01T09:00:00Z',
      });
      expect(updated.id).toBe(23);
      expect(updated.projects.map((p) => p.id)).toEqual([3, 4]);
      expect(artifacts.updateReleases).toHaveBeenCalledWith([3, 4], '1.0', {
        ref: undefined,
        url: undefined,
        dateReleased: new Date('2026-06-01T09:00:00Z'),
      });
    });

    it('answers "does not exist" when a project named lacks the release (none was changed)', async () => {
      artifacts.updateReleases.mockResolvedValue([]);
      await expect(
        service.updateRelease(uploader, '1.0', { projects: ['shop', 'blog'] }),
      ).rejects.toMatchObject(notFound);
    });

    it('refuses to update a release whose version in the path is invalid', async () => {
      await expect(
        service.updateRelease(uploader, '..', {}, 'shop'),
      ).rejects.toMatchObject({ code: ErrorTrackingErrorCode.BadRequest });
      expect(access.require).not.toHaveBeenCalled();
    });
  });
});
