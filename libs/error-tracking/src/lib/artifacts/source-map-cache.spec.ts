import { LoadedSourceMap } from './loaded-source-map';
import { SourceMapCache } from './source-map-cache';

function map(jsonBytes: number): LoadedSourceMap {
  const padding = ' '.repeat(Math.max(0, jsonBytes - 60));
  return LoadedSourceMap.parse(
    Buffer.from(
      `{"version":3,"sources":[],"names":[],"mappings":""${padding}}`,
    ),
    'a.js.map',
  );
}

describe('SourceMapCache', () => {
  it('keeps found maps within its byte budget, least recently used out first', () => {
    const one = map(1_000);
    const cache = new SourceMapCache(one.estimatedBytes * 2, 10_000);
    cache.set('a', { kind: 'map', map: one }, 0);
    cache.set('b', { kind: 'map', map: map(1_000) }, 0);
    expect(cache.get('a', 1)?.kind).toBe('map'); // a is now the most recent
    cache.set('c', { kind: 'map', map: map(1_000) }, 2);
    expect(cache.get('b', 3)).toBeUndefined();
    expect(cache.get('a', 3)?.kind).toBe('map');
    expect(cache.get('c', 3)?.kind).toBe('map');
    expect(cache.usedBytes).toBeLessThanOrEqual(one.estimatedBytes * 2);
    // Found maps never expire by time (bundles are immutable).
    expect(cache.get('a', 1e12)?.kind).toBe('map');
  });

  it('never caches a map larger than the whole budget', () => {
    const cache = new SourceMapCache(100, 10_000);
    cache.set('big', { kind: 'map', map: map(1_000) }, 0);
    expect(cache.size).toBe(0);
  });

  it('forgets misses and broken maps after the negative TTL', () => {
    const cache = new SourceMapCache(1 << 20, 10_000);
    cache.set('m', { kind: 'missing' }, 0);
    cache.set('x', { kind: 'broken', reason: 'bad' }, 0);
    expect(cache.get('m', 9_999)).toEqual({ kind: 'missing' });
    expect(cache.get('x', 10_000)).toBeUndefined();
    expect(cache.get('m', 10_001)).toBeUndefined();
    expect(cache.usedBytes).toBe(0);
  });
});
