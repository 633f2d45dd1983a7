import {
  parseEnvelopeRequest,
  parseStore,
  prepareEvent,
  serializePayload,
} from './prepare-request';

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

describe('weighing parsed payloads', () => {
  const refusal = new Error('the body budget is spent');
  const refuse = () => {
    throw refusal;
  };
  const context = { receivedAt: new Date(0), maxEventBytes: 1 << 20 };
  const envelope = (payload: string) =>
    Buffer.from(`{}\n{"type":"event"}\n${payload}\n`);

  it('tells the context each payload and its size', () => {
    const told: Array<[number, number]> = [];
    const payload = '{"message":"m","extra":{"a":[{},{}]}}';
    parseEnvelopeRequest(envelope(payload), {
      ...context,
      weighParsed: (values, bytes) => told.push([values, bytes]),
    });
    parseStore(Buffer.from(payload), {
      ...context,
      weighParsed: (values, bytes) => told.push([values, bytes]),
    });
    // The event, "m", extra, its array and the two objects.
    expect(told).toEqual([
      [6, payload.length],
      [6, payload.length],
    ]);
  });

  it("ends the request on the budget's refusal, not as a bad item or bad JSON", () => {
    const weighed = { ...context, weighParsed: refuse };
    expect(() =>
      parseEnvelopeRequest(envelope('{"message":"m"}'), weighed),
    ).toThrow(refusal);
    expect(() => parseStore(Buffer.from('{"message":"m"}'), weighed)).toThrow(
      refusal,
    );
    // Bad JSON stays the item's or the body's own fault.
    expect(
      parseEnvelopeRequest(envelope('{not json'), weighed).request.discards,
    ).toEqual([expect.objectContaining({ reason: 'invalid_payload' })]);
    expect(() => parseStore(Buffer.from('{not json'), weighed)).toThrow(
      'The event is not valid JSON.',
    );
  });
});
