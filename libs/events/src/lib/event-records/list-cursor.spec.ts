import { decodeCursor, encodeCursor } from './list-cursor';

describe('list cursors', () => {
  it('round-trip a position', () => {
    const position = {
      createdAt: new Date('2026-05-01T12:00:00.123Z'),
      id: '0190b6e2-7d3a-7c4e-9b1a-3f4f5e6d7c8a',
    };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
  });

  it.each([
    ['not base64 json', '!!!'],
    ['wrong shape', Buffer.from('{"a":1}').toString('base64url')],
    [
      'bad date',
      Buffer.from('["nope","0190b6e2-7d3a-7c4e-9b1a-3f4f5e6d7c8a"]').toString(
        'base64url',
      ),
    ],
    [
      'bad id',
      Buffer.from('["2026-05-01T12:00:00.123Z","x"]').toString('base64url'),
    ],
  ])('reject %s', (_label, cursor) => {
    expect(decodeCursor(cursor)).toBeUndefined();
  });
});
