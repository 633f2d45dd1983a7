import { serializePayload } from './prepare-request';

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
