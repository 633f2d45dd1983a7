import type { TestingModule } from '@nestjs/testing';
import {
  defined,
  loadBrowserSourceMapFixture,
  openTestDatabase,
  sentryCliAppFile,
} from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import {
  errorTrackingTestModule,
  seedProject,
  sqlOf,
} from '../../testing/error-tracking-test-module';
import type { JsonObject } from '../sentry-event/event-json';
import type { ArtifactBundle } from './artifact-bundle';
import { ArtifactsRepository } from './artifacts.repository';
import {
  SourceMapResolver,
  SourceMapsUnavailableError,
} from './source-map-resolver';

const DEBUG_ID = 'd627b5fd-d9d0-51b7-a35c-efb8bb13c281';
const debugIdEvent = loadBrowserSourceMapFixture('001-debug-id.json');
const legacyEvent = loadBrowserSourceMapFixture('002-legacy-release.json');

function frames(event: JsonObject): JsonObject[] {
  const values = (event['exception'] as { values: JsonObject[] }).values;
  return (defined(values[0])['stacktrace'] as { frames: JsonObject[] }).frames;
}

describe('SourceMapResolver (PostgreSQL)', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let artifacts: ArtifactsRepository;

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await errorTrackingTestModule(database.url, [
      ArtifactsRepository,
      SourceMapResolver,
    ]);
    artifacts = module.get(ArtifactsRepository);
  });

  afterAll(async () => {
    await module?.close();
    await database?.close();
  });

  async function upload(
    projectId: number,
    checksum: string,
    bundle: ArtifactBundle,
  ): Promise<void> {
    await artifacts.storeBundle({
      projectIds: [projectId],
      checksum,
      size: 1,
      bundle,
      release: bundle.release,
      dist: null,
      userId: 1,
      chunks: [],
      now: new Date(),
    });
  }

  const debugIdBundle: ArtifactBundle = {
    bundleId: null,
    release: null,
    dist: null,
    files: [
      {
        type: 'minified_source',
        url: '~/app.min.js',
        debugId: DEBUG_ID,
        sourcemap: 'app.min.js.map',
        content: sentryCliAppFile('dist/app.min.js'),
      },
      {
        type: 'source_map',
        url: '~/app.min.js.map',
        debugId: DEBUG_ID,
        sourcemap: null,
        content: sentryCliAppFile('dist/app.min.js.map'),
      },
    ],
  };

  it('reads a map once: every frame and later events resolve from memory', async () => {
    const { projectId } = await seedProject(sqlOf(module));
    await upload(projectId, 'a'.repeat(40), debugIdBundle);
    const resolver = module.get(SourceMapResolver);
    const lookups = jest.spyOn(artifacts, 'eventArtifacts');
    const first = await resolver.resolve(debugIdEvent.parsed.event, projectId);
    const second = await resolver.resolve(debugIdEvent.parsed.event, projectId);
    expect(lookups).toHaveBeenCalledTimes(1);
    lookups.mockRestore();
    expect(second).toEqual(first);
    expect(
      frames(first).map((f) => [f['function'] ?? null, f['lineno']]),
    ).toEqual(
      debugIdEvent.expect.resolved_frames.map((f) => [
        f.original.function,
        f.original.lineno,
      ]),
    );
  });

  it("never uses another project's maps", async () => {
    const owner = await seedProject(sqlOf(module));
    const other = await seedProject(sqlOf(module));
    await upload(owner.projectId, 'b'.repeat(40), debugIdBundle);
    const resolved = await module
      .get(SourceMapResolver)
      .resolve(debugIdEvent.parsed.event, other.projectId);
    expect(frames(resolved)).toEqual(frames(debugIdEvent.parsed.event));
    expect(resolved['errors']).toEqual([
      expect.objectContaining({ type: 'js_no_source', debug_id: DEBUG_ID }),
    ]);
  });

  it('finds a legacy upload by release and ~/ URL, through the sourcemap header', async () => {
    const { projectId } = await seedProject(sqlOf(module));
    await upload(projectId, 'c'.repeat(40), {
      bundleId: null,
      release: '1.0.0',
      dist: null,
      files: [
        {
          type: 'minified_source',
          url: '~/static/app.legacy.min.js',
          debugId: null,
          sourcemap: 'app.legacy.min.js.map',
          content: sentryCliAppFile('legacy/app.legacy.min.js'),
        },
        {
          type: 'source_map',
          url: '~/static/app.legacy.min.js.map',
          debugId: null,
          sourcemap: null,
          content: sentryCliAppFile('legacy/app.legacy.min.js.map'),
        },
      ],
    });
    const resolved = await module
      .get(SourceMapResolver)
      .resolve(legacyEvent.parsed.event, projectId);
    expect(frames(resolved).map((f) => f['abs_path'])).toEqual(
      legacyEvent.expect.resolved_frames.map((f) => f.original.abs_path),
    );
    // Another release does not match.
    const otherRelease = await module
      .get(SourceMapResolver)
      .resolve({ ...legacyEvent.parsed.event, release: '2.0.0' }, projectId);
    expect(frames(otherRelease)).toEqual(frames(legacyEvent.parsed.event));
  });

  it('records a broken map with its reason and a failing database without failing', async () => {
    const { projectId } = await seedProject(sqlOf(module));
    await upload(projectId, 'd'.repeat(40), {
      ...debugIdBundle,
      files: debugIdBundle.files.map((f) =>
        f.type === 'source_map'
          ? { ...f, content: Buffer.from('{"version":3,"mappings":"!!"') }
          : f,
      ),
    });
    const resolver = module.get(SourceMapResolver);
    const broken = await resolver.resolve(debugIdEvent.parsed.event, projectId);
    expect(broken['errors']).toEqual([
      expect.objectContaining({
        type: 'js_invalid_source',
        reason: 'the source map is not valid JSON',
      }),
    ]);
    const failing = jest
      .spyOn(artifacts, 'eventArtifacts')
      .mockRejectedValueOnce(new Error('connection lost'));
    const other = await seedProject(sqlOf(module));
    const unresolved = await resolver.resolve(
      debugIdEvent.parsed.event,
      other.projectId,
    );
    failing.mockRestore();
    expect(frames(unresolved)).toEqual(frames(debugIdEvent.parsed.event));
    expect(unresolved['errors']).toEqual([
      expect.objectContaining({ type: 'js_invalid_source' }),
    ]);
  });

  it('throws while the database cannot be reached and remembers nothing of it; with a wait, once it passes', async () => {
    const { projectId } = await seedProject(sqlOf(module));
    await upload(projectId, 'e'.repeat(40), debugIdBundle);
    const resolver = module.get(SourceMapResolver);
    const event = debugIdEvent.parsed.event;
    const refused = Object.assign(new Error('connect ECONNREFUSED'), {
      code: 'ECONNREFUSED',
    });
    const lookups = jest
      .spyOn(artifacts, 'eventArtifacts')
      .mockRejectedValueOnce(refused);
    await expect(resolver.resolve(event, projectId)).rejects.toBe(refused);
    await expect(resolver.resolve(event, projectId, 0)).rejects.toBeInstanceOf(
      SourceMapsUnavailableError,
    );
    // A wait of 0 looks nothing up: the one lookup so far failed.
    expect(lookups).toHaveBeenCalledTimes(1);
    let answer: (() => void) | undefined;
    lookups.mockImplementationOnce(async (...args) => {
      await new Promise<void>((resolve) => (answer = resolve));
      lookups.mockRestore();
      return artifacts.eventArtifacts(...args);
    });
    await expect(resolver.resolve(event, projectId, 20)).rejects.toBeInstanceOf(
      SourceMapsUnavailableError,
    );
    // The late answer still serves the events after it.
    const late = resolver.resolve(event, projectId);
    defined(answer)();
    expect(frames(await late).map((f) => f['lineno'])).toEqual(
      debugIdEvent.expect.resolved_frames.map((f) => f.original.lineno),
    );
  });

  it('leaves no rejection unhandled when a lookup it did not wait for fails', async () => {
    const { projectId } = await seedProject(sqlOf(module));
    await upload(projectId, 'f'.repeat(40), debugIdBundle);
    const resolver = module.get(SourceMapResolver);
    const event = debugIdEvent.parsed.event;
    let fail: ((error: Error) => void) | undefined;
    const lookups = jest
      .spyOn(artifacts, 'eventArtifacts')
      .mockImplementationOnce(
        () => new Promise((_, reject) => (fail = reject)),
      );
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      // One event waits for the lookup; a second, in the cool-down (a wait
      // of 0), finds it in flight and gives up at once.
      const waiting = resolver.resolve(event, projectId);
      await expect(
        resolver.resolve(event, projectId, 0),
      ).rejects.toBeInstanceOf(SourceMapsUnavailableError);
      defined(fail)(
        Object.assign(new Error('Connection terminated'), {
          code: 'ECONNRESET',
        }),
      );
      await expect(waiting).rejects.toThrow('Connection terminated');
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      lookups.mockRestore();
    }
  });
});
