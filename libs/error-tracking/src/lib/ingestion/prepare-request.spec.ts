import { prepareEvent, serializePayload } from './prepare-request';

describe('serializePayload', () => {
  it('replaces lone surrogates, which jsonb refuses, and keeps everything else', () => {
    const lone = { message: 'bad \uD800 high', [`key\uDC00`]: ['low \uDC00'] };
    expect(JSON.parse(serializePayload(lone))).toEqual({
      message: 'bad \uFFFD high',
      'key\uFFFD': ['low \uFFFD'],
    });
    expect(serializePayload(lone)).not.toMatch(/\\ud[89a-f]/i);
  });

  it('leaves well-formed text as JSON.stringify writes it', () => {
    const payload = {
      pair: 'emoji \uD83D\uDE00',
      // The characters of an escape, not a surrogate.
      literal: '\\ud800 and \\UD800',
    };
    expect(serializePayload(payload)).toBe(JSON.stringify(payload));
  });
});

describe('prepareEvent', () => {
  // Found by the fuzz fault suite: a lone surrogate in `server_name` (a
  // derived tag) reached the flush's tag JSON and PostgreSQL refused the
  // whole batch (500).
  it('writes tags PostgreSQL accepts when a tag value holds a lone surrogate', () => {
    const prepared = prepareEvent(
      {
        event_id: 'a'.repeat(32),
        message: 'x',
        server_name: '\uD800\uDFFF\uDBFF host',
        tags: { region: 'eu\uDC00' },
      },
      { receivedAt: new Date('2026-11-29T10:00:00Z') },
    );
    expect(prepared.tagsJson).not.toMatch(/\\ud[89a-f]/i);
    expect(JSON.parse(prepared.tagsJson ?? '{}')).toMatchObject({
      server_name: '\uD800\uDFFF\uFFFD host',
      region: 'eu\uFFFD',
    });
  });
});
