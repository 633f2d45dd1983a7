import {
  etagOf,
  expectedVersionsFromIfMatch,
  ifNoneMatchHits,
} from './event-etag';

const id = '0190b6e2-7d3a-7c4e-9b1a-3f4f5e6d7c8a';
const other = '0190b6e2-7d3a-7c4e-9b1a-3f4f5e6d7c8b';

describe('event ETags', () => {
  it('are strong, stable per version and distinct per record', () => {
    const tag = etagOf({ id, version: 3 });
    expect(tag).toMatch(/^"3-[0-9a-f]{8}"$/);
    expect(etagOf({ id, version: 3 })).toBe(tag);
    expect(etagOf({ id, version: 4 })).not.toBe(tag);
    expect(etagOf({ id: other, version: 3 })).not.toBe(tag);
  });

  it('turn If-Match into the versions a write may replace', () => {
    const v2 = etagOf({ id, version: 2 });
    const v5 = etagOf({ id, version: 5 });
    expect(expectedVersionsFromIfMatch(undefined, id)).toBeUndefined();
    expect(expectedVersionsFromIfMatch('*', id)).toBe('any');
    expect(expectedVersionsFromIfMatch(`${v2}, ${v5}`, id)).toEqual([2, 5]);
    // Weak tags, other records' tags and garbage match nothing.
    expect(expectedVersionsFromIfMatch(`W/${v2}`, id)).toEqual([]);
    expect(
      expectedVersionsFromIfMatch(etagOf({ id: other, version: 2 }), id),
    ).toEqual([]);
    expect(expectedVersionsFromIfMatch('"garbage"', id)).toEqual([]);
  });

  it('evaluate If-None-Match with weak comparison', () => {
    const tag = etagOf({ id, version: 1 });
    expect(ifNoneMatchHits(undefined, tag)).toBe(false);
    expect(ifNoneMatchHits(tag, tag)).toBe(true);
    expect(ifNoneMatchHits(`"x", W/${tag}`, tag)).toBe(true);
    expect(ifNoneMatchHits('*', tag)).toBe(true);
    expect(ifNoneMatchHits(etagOf({ id, version: 2 }), tag)).toBe(false);
  });
});
