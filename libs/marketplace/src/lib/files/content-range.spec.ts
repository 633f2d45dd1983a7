import { parseContentRange, parseRange } from './content-range';

describe('Content-Range of uploads', () => {
  it('reads probes and chunks', () => {
    expect(parseContentRange('bytes */10')).toEqual({
      kind: 'probe',
      total: 10,
    });
    expect(parseContentRange('bytes 0-4/10')).toEqual({
      kind: 'chunk',
      start: 0,
      end: 4,
      total: 10,
    });
    expect(parseContentRange('bytes 5-9/*')).toEqual({
      kind: 'chunk',
      start: 5,
      end: 9,
      total: -1,
    });
  });

  it('refuses anything else', () => {
    expect(parseContentRange(undefined)).toBeUndefined();
    expect(parseContentRange('bytes 4-1/10')).toBeUndefined();
    expect(parseContentRange('items 0-1/2')).toBeUndefined();
  });
});

describe('Range of downloads', () => {
  it('clamps, takes suffixes and open ends', () => {
    expect(parseRange('bytes=0-3', 10)).toEqual({ start: 0, end: 3 });
    expect(parseRange('bytes=5-', 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange('bytes=-3', 10)).toEqual({ start: 7, end: 9 });
    expect(parseRange('bytes=8-100', 10)).toEqual({ start: 8, end: 9 });
  });

  it('tells unsatisfiable (null) from absent or unreadable (undefined)', () => {
    expect(parseRange('bytes=10-12', 10)).toBeNull();
    expect(parseRange(undefined, 10)).toBeUndefined();
    expect(parseRange('bytes=1-2,4-5', 10)).toBeUndefined();
  });
});
