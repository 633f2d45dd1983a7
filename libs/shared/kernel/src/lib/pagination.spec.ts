import {
  decodeCursor,
  decodePosition,
  encodeCursor,
  encodePosition,
  keysetPage,
  pageOffset,
} from './pagination';

const ID = '0190b6e2-7d3a-7c4e-9b1a-3f4f5e6d7c8a';
const anyId = () => true;

describe('pagination', () => {
  it('round-trips the parts of a cursor', () => {
    const cursor = encodeCursor(['frequency', '30', '1']);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, 3)).toEqual(['frequency', '30', '1']);
  });

  it.each([
    ['not base64 json', '!!!'],
    ['an object', Buffer.from('{"a":1}').toString('base64url')],
    ['a number part', Buffer.from('["a",1]').toString('base64url')],
  ])('refuses %s', (_label, cursor) => {
    expect(decodeCursor(cursor, 2)).toBeUndefined();
  });

  it('refuses a cursor with another number of parts', () => {
    expect(decodeCursor(encodeCursor(['a', 'b']), 3)).toBeUndefined();
  });

  it('round-trips a (timestamp, id) position', () => {
    const position = { at: new Date('2026-05-01T12:00:00.123Z'), id: ID };
    expect(decodePosition(encodePosition(position), anyId)).toEqual(position);
  });

  it.each([
    ['a bad timestamp', encodeCursor(['nope', ID]), anyId],
    [
      'an id the context refuses',
      encodeCursor(['2026-05-01', 'x']),
      () => false,
    ],
    ['three parts', encodeCursor(['2026-05-01', ID, ID]), anyId],
  ])('refuses a position with %s', (_label, cursor, isId) => {
    expect(decodePosition(cursor, isId)).toBeUndefined();
  });

  it('names the last row shown only when another page follows', () => {
    expect(keysetPage([1, 2, 3], 2)).toEqual({ items: [1, 2], next: 2 });
    expect(keysetPage([1, 2], 2)).toEqual({ items: [1, 2], next: undefined });
    expect(keysetPage([], 2)).toEqual({ items: [], next: undefined });
  });

  it('skips the rows of the pages before', () => {
    expect(pageOffset(1, 20)).toBe(0);
    expect(pageOffset(3, 20)).toBe(40);
  });
});
