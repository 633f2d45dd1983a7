import {
  defined,
  loadBrowserSourceMapFixture,
  sentryCliAppFile,
} from '@quitanda/testing';

import type { JsonObject } from '../sentry-event/event-json';
import { groupingCandidates } from '../ingestion/grouping';
import { normalizeEvent } from '../ingestion/normalize-event';
import { LoadedSourceMap } from './loaded-source-map';
import type { SourceMapLookup } from './source-map-cache';
import {
  applyResolution,
  displayFilename,
  planResolution,
  tildeUrls,
} from './symbolicate';

const debugIdFixture = loadBrowserSourceMapFixture('001-debug-id.json');
const legacyFixture = loadBrowserSourceMapFixture('002-legacy-release.json');

function mapLookup(path: string, ref: string): SourceMapLookup {
  return {
    kind: 'map',
    map: LoadedSourceMap.parse(sentryCliAppFile(path), ref),
  };
}

function resolveWith(raw: JsonObject, lookup: SourceMapLookup): JsonObject {
  const plan = defined(planResolution(raw) ?? undefined);
  const lookups = new Map([...plan.targets.keys()].map((k) => [k, lookup]));
  return applyResolution(raw, plan, lookups);
}

function framesOf(event: JsonObject, field = 'stacktrace'): JsonObject[] {
  const values = (event['exception'] as { values: JsonObject[] }).values;
  return ((values[0] as JsonObject)[field] as { frames: JsonObject[] }).frames;
}

describe('source map resolution of the browser fixtures', () => {
  it.each([
    ['debug id', debugIdFixture, 'dist/app.min.js.map', 'app.min.js.map'],
    [
      'release and URL',
      legacyFixture,
      'legacy/app.legacy.min.js.map',
      'app.legacy.min.js.map',
    ],
  ])(
    'resolves every frame by %s to the original file, line, column, function and context',
    (_how, fixture, mapPath, ref) => {
      const raw = fixture.parsed.event;
      const resolved = resolveWith(raw, mapLookup(mapPath, ref));
      const frames = framesOf(resolved);
      expect(frames).toHaveLength(fixture.expect.resolved_frames.length);
      fixture.expect.resolved_frames.forEach((expected, i) => {
        const frame = defined(frames[i]);
        const original = expected.original;
        expect(frame['abs_path']).toBe(original.abs_path);
        expect(frame['filename']).toBe(displayFilename(original.source_in_map));
        expect(frame['lineno']).toBe(original.lineno);
        expect(frame['colno']).toBe(original.colno);
        expect(frame['function'] ?? null).toBe(original.function);
        expect(frame['context_line']).toBe(original.context_line);
        expect(frame['pre_context']).toEqual(original.pre_context);
        expect(frame['post_context']).toEqual(original.post_context);
        expect(frame['in_app']).toBe(true);
        expect(frame['data']).toMatchObject({ symbolicated: true });
      });
      // The minified frames are kept beside them, untouched.
      expect(framesOf(resolved, 'raw_stacktrace')).toEqual(
        framesOf(raw as JsonObject),
      );
      expect(resolved['errors']).toBeUndefined();
    },
  );

  it('groups the resolved event by its original frames, and the culprit names the original function', () => {
    const resolved = resolveWith(
      debugIdFixture.parsed.event,
      mapLookup('dist/app.min.js.map', 'app.min.js.map'),
    );
    const legacy = resolveWith(
      legacyFixture.parsed.event,
      mapLookup('legacy/app.legacy.min.js.map', 'app.legacy.min.js.map'),
    );
    const ctx = { receivedAt: new Date('2026-11-25T06:00:00Z') };
    const event = normalizeEvent(resolved, ctx);
    expect(event.culprit).toBe('validateItem(src/validate.js)');
    // Two different bundles of the same code: one error.
    expect(groupingCandidates(event)).toEqual(
      groupingCandidates(normalizeEvent(legacy, ctx)),
    );
    expect(groupingCandidates(event)).not.toEqual(
      groupingCandidates(normalizeEvent(debugIdFixture.parsed.event, ctx)),
    );
  });

  it('records a missing or broken map on the event and keeps the frames as sent', () => {
    const raw = debugIdFixture.parsed.event;
    const missing = resolveWith(raw, { kind: 'missing' });
    expect(framesOf(missing)).toEqual(framesOf(raw));
    expect(missing['errors']).toEqual([
      {
        type: 'js_no_source',
        url: 'http://127.0.0.1:38919/static/app.min.js',
        debug_id: 'd627b5fd-d9d0-51b7-a35c-efb8bb13c281',
      },
    ]);
    const broken = resolveWith(raw, { kind: 'broken', reason: 'bad' });
    expect(broken['errors']).toEqual([
      expect.objectContaining({ type: 'js_invalid_source', reason: 'bad' }),
    ]);
  });

  it('needs nothing for events without debug images or a JavaScript release', () => {
    const raw = { ...debugIdFixture.parsed.event };
    delete raw['debug_meta'];
    expect(planResolution(raw)).toBeNull();
    expect(
      planResolution({ ...raw, release: '1', platform: 'python' }),
    ).toBeNull();
    expect(planResolution({ ...raw, release: '1' })).not.toBeNull();
  });

  it('matches legacy files by URL and by their ~/ forms', () => {
    expect(tildeUrls('http://h:1/static/a.js?v=2')).toEqual([
      'http://h:1/static/a.js?v=2',
      '~/static/a.js?v=2',
      '~/static/a.js',
    ]);
    expect(displayFilename('webpack://app/./src/x.js')).toBe('src/x.js');
  });

  it.each([
    ['a server path', '/srv/app/main.js'],
    ['a relative path', 'app/main.js'],
  ])('keeps %s as the one URL to look up', (_, url) => {
    expect(tildeUrls(url)).toEqual([url]);
  });
});

describe('LoadedSourceMap', () => {
  it.each([
    ['not JSON', Buffer.from('{"version":3,'), /not valid JSON/],
    ['another version', Buffer.from('{"version":2}'), /version 2/],
    [
      'corrupt mappings',
      Buffer.from(
        JSON.stringify({
          version: 3,
          sources: ['a.js'],
          names: [],
          mappings: 'AAAA,CAAC,EAAE,GAAG;!!!',
        }),
      ),
      /corrupt|refer/,
    ],
    [
      'mappings to missing sources',
      Buffer.from(
        JSON.stringify({
          version: 3,
          sources: ['a.js'],
          names: [],
          mappings: 'ACAA',
        }),
      ),
      /source the map does not list/,
    ],
    [
      'negative positions',
      Buffer.from(
        JSON.stringify({
          version: 3,
          sources: ['a.js'],
          names: [],
          mappings: 'AAAA;;zzzz',
        }),
      ),
      /corrupt/,
    ],
  ])('refuses a map that is %s, saying why', (_what, content, reason) => {
    expect(() => LoadedSourceMap.parse(content, 'a.js.map')).toThrow(reason);
  });
});
