import type { TestingModule } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import { poolOf } from '@quitanda/database';
import { defined, openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';
import type { DataSource } from 'typeorm';

import { ERROR_TRACKING_DATA_SOURCE } from '../common/error-tracking.constants';
import {
  errorTrackingTestModule,
  seedProject,
  sqlOf,
} from '../../testing/error-tracking-test-module';
import type { JsonObject } from '../sentry-event/event-json';
import { ArtifactsRepository } from './artifacts.repository';
import { SourceMapResolver } from './source-map-resolver';

/** An event of one exception with `count` distinct minified frames. */
function minifiedEvent(count: number): JsonObject {
  const frames = Array.from({ length: count }, (_, i) => ({
    abs_path: `http://cdn.example/${i}.min.js`,
    function: 'a',
    lineno: 1,
    colno: i + 1,
  }));
  return {
    platform: 'javascript',
    release: '9.9.9',
    exception: {
      values: [{ type: 'Error', value: 'x', stacktrace: { frames } }],
    },
  };
}

function absPaths(event: JsonObject): unknown[] {
  const [exception] = (event['exception'] as { values: JsonObject[] }).values;
  const stacktrace = defined(exception)['stacktrace'] as {
    frames: JsonObject[];
  };
  return stacktrace.frames.map((f) => f['abs_path']);
}

describe('SourceMapResolver database work per event (PostgreSQL)', () => {
  let database: TestDatabase;
  let module: TestingModule;

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await errorTrackingTestModule(database.url, [
      ArtifactsRepository,
      SourceMapResolver,
    ]);
  });

  afterAll(async () => {
    await module?.close();
    await database?.close();
  });

  it('looks up an event with 25,000 distinct minified frames in one query, on its 250 kept frames', async () => {
    const { projectId } = await seedProject(sqlOf(module));
    const pool = poolOf(
      module.get<DataSource>(getDataSourceToken(ERROR_TRACKING_DATA_SOURCE)),
    );
    // Every statement goes through the pool (a transaction would check out
    // a client of it and run BEGIN there, failing the count too).
    const lookups = jest.spyOn(
      module.get(ArtifactsRepository),
      'eventArtifacts',
    );
    const statements = jest.spyOn(pool, 'query');
    const checkouts = jest.spyOn(pool, 'connect');
    await module
      .get(SourceMapResolver)
      .resolve(minifiedEvent(25_000), projectId);
    const work = {
      statements: statements.mock.calls.length,
      checkouts: checkouts.mock.calls.length,
    };
    const wanted = defined(lookups.mock.calls[0])[1];
    lookups.mockRestore();
    statements.mockRestore();
    checkouts.mockRestore();
    // pg's pool.query checks a client out for its one statement.
    expect(work).toEqual({ statements: 1, checkouts: 1 });
    // What was looked up is what normalisation keeps: both ends.
    const looked = new Set(wanted.urls.filter((u) => u.startsWith('http')));
    expect(looked.size).toBe(250);
    expect(looked).toContain('http://cdn.example/0.min.js');
    expect(looked).toContain('http://cdn.example/24999.min.js');
    expect(looked).not.toContain('http://cdn.example/12500.min.js');
  });

  it('reads the maps an event finds in a second query, then serves later events from memory', async () => {
    const { projectId } = await seedProject(sqlOf(module));
    const map = Buffer.from(
      JSON.stringify({
        version: 3,
        sources: ['src/a.js'],
        names: ['boom'],
        mappings: 'AAAAA',
        sourcesContent: ['boom();'],
      }),
    );
    await module.get(ArtifactsRepository).storeBundle({
      projectIds: [projectId],
      checksum: 'e'.repeat(40),
      size: 1,
      bundle: {
        bundleId: null,
        release: '9.9.9',
        dist: null,
        files: [
          {
            type: 'minified_source',
            url: '~/7.min.js',
            debugId: null,
            sourcemap: '7.min.js.map',
            content: Buffer.from('boom();'),
          },
          {
            type: 'source_map',
            url: '~/7.min.js.map',
            debugId: null,
            sourcemap: null,
            content: map,
          },
        ],
      },
      release: '9.9.9',
      dist: null,
      userId: 1,
      chunks: [],
      now: new Date(),
    });
    const pool = poolOf(
      module.get<DataSource>(getDataSourceToken(ERROR_TRACKING_DATA_SOURCE)),
    );
    const resolver = module.get(SourceMapResolver);
    const statements = jest.spyOn(pool, 'query');
    const first = await resolver.resolve(minifiedEvent(10), projectId);
    const afterFirst = statements.mock.calls.length;
    const second = await resolver.resolve(minifiedEvent(10), projectId);
    const afterSecond = statements.mock.calls.length;
    statements.mockRestore();
    expect([afterFirst, afterSecond]).toEqual([2, 2]);
    expect(second).toEqual(first);
    expect(absPaths(first)[7]).toBe('http://cdn.example/src/a.js');
    expect(absPaths(first)[6]).toBe('http://cdn.example/6.min.js');
  });
});
