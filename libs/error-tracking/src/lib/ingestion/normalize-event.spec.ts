import { normalizeEvent, parseTimestamp } from './normalize-event';

const receivedAt = new Date('2026-11-22T10:00:00.000Z');
const ctx = { receivedAt, clientIp: '203.0.113.9' };

describe('normalizeEvent', () => {
  it('takes the envelope event_id over the payload, normalises dashes and case, or generates one', () => {
    expect(
      normalizeEvent(
        { event_id: 'A'.repeat(32) },
        { ...ctx, envelopeEventId: 'b'.repeat(32) },
      ).eventId,
    ).toBe('b'.repeat(32));
    expect(
      normalizeEvent({ event_id: '0190B6E2-7D3A-7C4E-9B1A-3F4F5E6D7C8A' }, ctx)
        .eventId,
    ).toBe('0190b6e27d3a7c4e9b1a3f4f5e6d7c8a');
    expect(normalizeEvent({ event_id: 'nope' }, ctx).eventId).toMatch(
      /^[0-9a-f]{32}$/,
    );
  });

  it('reads every timestamp form and falls back to the received time', () => {
    expect(
      parseTimestamp('2026-11-22T03:53:47.992845249Z')?.toISOString(),
    ).toBe('2026-11-22T03:53:47.992Z');
    expect(parseTimestamp('2026-11-22T03:53:47')?.toISOString()).toBe(
      '2026-11-22T03:53:47.000Z',
    );
    expect(parseTimestamp('2026-11-22T05:53:47+02:00')?.toISOString()).toBe(
      '2026-11-22T03:53:47.000Z',
    );
    expect(parseTimestamp(1795319619.51)?.toISOString()).toBe(
      '2026-11-22T03:53:39.510Z',
    );
    expect(parseTimestamp('1795319619')?.toISOString()).toBe(
      '2026-11-22T03:53:39.000Z',
    );
    expect(parseTimestamp('yesterday')).toBeUndefined();
    expect(normalizeEvent({}, ctx).timestamp).toEqual(receivedAt);
    const future = new Date(receivedAt.getTime() + 61_000).toISOString();
    expect(normalizeEvent({ timestamp: future }, ctx).timestamp).toEqual(
      receivedAt,
    );
    const near = new Date(receivedAt.getTime() + 59_000);
    expect(
      normalizeEvent({ timestamp: near.toISOString() }, ctx).timestamp,
    ).toEqual(near);
    const old = '2020-01-01T00:00:00Z';
    expect(normalizeEvent({ timestamp: old }, ctx).payload['received_at']).toBe(
      receivedAt.toISOString(),
    );
  });

  it('defaults level and environment, maps level aliases', () => {
    const event = normalizeEvent({}, ctx);
    expect([event.level, event.environment, event.platform]).toEqual([
      'error',
      'production',
      'other',
    ]);
    expect(normalizeEvent({ level: 'WARN' }, ctx).level).toBe('warning');
    expect(normalizeEvent({ level: 'bogus' }, ctx).level).toBe('error');
  });

  it('resolves {{auto}} user IPs and reads tags as an object or pairs', () => {
    const event = normalizeEvent(
      {
        user: { id: 7, ip_address: '{{auto}}' },
        tags: [['a', '1'], ['b', 2], ['bad']],
      },
      ctx,
    );
    expect(event.user).toEqual({ id: '7', ip_address: '203.0.113.9' });
    expect(event.tags).toEqual({ a: '1', b: '2' });
    expect(normalizeEvent({ tags: { x: 'y', n: null } }, ctx).tags).toEqual({
      x: 'y',
    });
  });

  it('reads exception values or a bare list (Go); the last value was thrown', () => {
    const chain = normalizeEvent(
      {
        exception: {
          values: [
            { type: 'Cause', value: 'root' },
            {
              type: 'Outer',
              value: 'failed\nsecond line',
              stacktrace: { frames: [{ function: 'f', module: 'm' }] },
            },
          ],
        },
      },
      ctx,
    );
    expect(chain.title).toBe('Outer: failed');
    expect(chain.type).toBe('Outer');
    expect(chain.culprit).toBe('m in f');
    const go = normalizeEvent(
      { exception: [{ type: '*errors.errorString', value: 'boom' }] },
      ctx,
    );
    expect(go.title).toBe('*errors.errorString: boom');
    expect(go.payload['exception']).toEqual({
      values: [{ type: '*errors.errorString', value: 'boom' }],
    });
  });

  it('treats a message with a synthetic, type-less exception as a message event', () => {
    const event = normalizeEvent(
      {
        message: 'hello world',
        exception: {
          values: [
            {
              value: 'hello world',
              mechanism: { synthetic: true },
              stacktrace: { frames: [{ function: 'g' }] },
            },
          ],
        },
      },
      ctx,
    );
    expect(event.title).toBe('hello world');
    expect(event.type).toBe('');
  });

  it('reads message and logentry forms, formatting parameters', () => {
    expect(normalizeEvent({ message: 'plain' }, ctx).message).toBe('plain');
    const entry = normalizeEvent(
      { logentry: { message: 'user %s failed %d times', params: ['bob', 3] } },
      ctx,
    );
    expect(entry.message).toBe('user bob failed 3 times');
    expect(entry.messageTemplate).toBe('user %s failed %d times');
    expect(
      normalizeEvent({ message: { formatted: 'pre-formatted' } }, ctx).message,
    ).toBe('pre-formatted');
    expect(
      normalizeEvent(
        { message: '', exception: [{ type: 'E', value: 'v' }] },
        ctx,
      ).title,
    ).toBe('E: v');
  });

  it('truncates instead of rejecting, keeping both ends of long stack traces', () => {
    const frames = Array.from({ length: 400 }, (_, i) => ({
      function: `f${i}`,
      module: 'm',
    }));
    const event = normalizeEvent(
      {
        exception: [
          {
            type: 'T'.repeat(2000),
            value: 'v'.repeat(20_000),
            stacktrace: { frames },
          },
        ],
        tags: { ['k'.repeat(300)]: 'v'.repeat(300) },
        message: 'm'.repeat(10_000),
      },
      ctx,
    );
    expect(event.title.length).toBe(1024);
    expect(Object.entries(event.tags)[0]?.map((s) => s.length)).toEqual([
      200, 200,
    ]);
    expect(event.value.length).toBe(8192);
    const kept = event.exceptions[0]?.frames ?? [];
    expect(kept).toHaveLength(250);
    expect(kept[0]?.function).toBe('f0');
    expect(kept[249]?.function).toBe('f399');
    expect(event.culprit).toBe('m in f399');
  });

  it('keeps contexts, extra, breadcrumbs (list becomes {values}), sdk and request', () => {
    const event = normalizeEvent(
      {
        contexts: { os: { name: 'linux' } },
        extra: { a: 1 },
        breadcrumbs: [{ m: 1 }],
        sdk: { name: 's' },
        request: { url: 'u' },
      },
      ctx,
    );
    expect(event.payload).toMatchObject({
      contexts: { os: { name: 'linux' } },
      extra: { a: 1 },
      breadcrumbs: { values: [{ m: 1 }] },
      sdk: { name: 's' },
      request: { url: 'u' },
    });
  });
});

describe("normalizeEvent, as Relay's normalize does", () => {
  const DAY_MS = 86_400_000;
  const at = (offsetMs: number) =>
    new Date(receivedAt.getTime() + offsetMs).toISOString();

  it.each([
    ['31 days in the past', at(-31 * DAY_MS), receivedAt.toISOString(), true],
    ['a 2021 fixture', '2021-03-01T12:00:00Z', receivedAt.toISOString(), true],
    ['61 s in the future', at(61_000), receivedAt.toISOString(), true],
    ['29 days in the past', at(-29 * DAY_MS), at(-29 * DAY_MS), false],
    ['59 s in the future', at(59_000), at(59_000), false],
  ])(
    'timestamp %s: stored as %s, original kept: %s',
    (_case, sent, stored, kept) => {
      const event = normalizeEvent({ timestamp: sent }, ctx);
      expect(event.timestamp.toISOString()).toBe(stored);
      expect(event.payload['timestamp']).toBe(stored);
      expect(event.payload['original_timestamp']).toBe(kept ? sent : undefined);
    },
  );

  it.each([
    [10, 'debug'],
    [20, 'info'],
    [30, 'warning'],
    [40, 'error'],
    [50, 'fatal'],
    ['50', 'fatal'],
    [35, 'error'],
    ['critical', 'fatal'],
    ['log', 'info'],
  ])('level %p is %s', (level, expected) => {
    expect(normalizeEvent({ level }, ctx).level).toBe(expected);
  });

  it.each([
    ['python', 'python'],
    ['javascript', 'javascript'],
    ['cocoa', 'cocoa'],
    ['as3', 'as3'],
    ['dart', 'other'],
    ['unity', 'other'],
    ['Python', 'other'],
    [undefined, 'other'],
  ])('platform %p is %s', (platform, expected) => {
    const event = normalizeEvent({ platform }, ctx);
    expect(event.platform).toBe(expected);
    expect(event.payload['platform']).toBe(expected);
  });

  it.each([
    [
      'sentry.interfaces.Exception',
      { values: [{ type: 'ValueError', value: 'bad' }] },
      (e: ReturnType<typeof normalizeEvent>) => e.title,
      'ValueError: bad',
    ],
    [
      'sentry.interfaces.Message',
      { message: 'user %s left', params: ['bob'] },
      (e: ReturnType<typeof normalizeEvent>) => e.title,
      'user bob left',
    ],
    [
      'sentry.interfaces.User',
      { id: 'u1' },
      (e: ReturnType<typeof normalizeEvent>) => e.user?.id,
      'u1',
    ],
    [
      'sentry.interfaces.Http',
      { url: 'https://shop.example/cart' },
      (e: ReturnType<typeof normalizeEvent>) =>
        (e.payload['request'] as Record<string, unknown>)['url'],
      'https://shop.example/cart',
    ],
  ])('legacy key %s is its modern alias', (key, value, read, expected) => {
    const event = normalizeEvent({ [key]: value }, ctx);
    expect(read(event)).toBe(expected);
    expect(event.payload[key]).toBeUndefined();
  });

  it('keeps the modern key when both are sent', () => {
    const event = normalizeEvent(
      {
        logentry: { message: 'modern' },
        'sentry.interfaces.Message': { message: 'legacy' },
      },
      ctx,
    );
    expect(event.title).toBe('modern');
  });

  const frames = [
    { function: 'main', filename: 'app.js', in_app: true },
    { function: 'crash', filename: 'app.js', in_app: true },
  ];

  it('moves a top-level stacktrace into the one exception without one', () => {
    const event = normalizeEvent(
      {
        exception: { values: [{ type: 'Error', value: 'boom' }] },
        stacktrace: { frames },
      },
      ctx,
    );
    expect(event.exceptions[0]?.frames).toEqual(frames);
    expect(event.payload['stacktrace']).toBeUndefined();
    const stored = (event.payload['exception'] as Record<string, unknown>)[
      'values'
    ] as Array<Record<string, unknown>>;
    expect(stored[0]?.['stacktrace']).toEqual({ frames });
  });

  it('keeps a top-level stacktrace with no exception as the message stack trace', () => {
    const event = normalizeEvent(
      { message: 'non-error thrown', stacktrace: { frames } },
      ctx,
    );
    expect(event.exceptions).toEqual([]);
    expect(event.messageFrames).toEqual(frames);
    expect(event.payload['stacktrace']).toEqual({ frames });
  });

  it('leaves a top-level stacktrace alone when the exception has its own', () => {
    const own = [{ function: 'own', filename: 'own.js' }];
    const event = normalizeEvent(
      {
        exception: [{ type: 'E', value: 'v', stacktrace: { frames: own } }],
        stacktrace: { frames },
      },
      ctx,
    );
    expect(event.exceptions[0]?.frames).toEqual(own);
  });

  it.each([
    ['%s bought %d items', ['ann', 3], 'ann bought 3 items'],
    [
      '{user} bought {count} items',
      { user: 'ann', count: 3 },
      'ann bought 3 items',
    ],
    [
      '%(user)s bought %(count)d items',
      { user: 'ann', count: 3 },
      'ann bought 3 items',
    ],
    ['{0} bought {1} items', ['ann', 3], 'ann bought 3 items'],
    ['{missing} stays', { other: 1 }, '{missing} stays'],
    ['100%% sure, %s', ['ann'], '100% sure, ann'],
  ])(
    'formats %p with %p as %p, the template kept',
    (message, params, shown) => {
      const event = normalizeEvent({ logentry: { message, params } }, ctx);
      expect(event.message).toBe(shown);
      expect(event.title).toBe(shown);
      expect(event.messageTemplate).toBe(message);
    },
  );
});

describe('normalizeEvent, scrubbing as Sentry does by default', () => {
  const sent = {
    message: 'checkout failed',
    request: {
      url: 'https://shop.example/checkout',
      headers: { Authorization: 'Bearer abc', Cookie: 'sid=s1' },
      data: { password: 'hunter2', sku: 'x' },
    },
    extra: { token: 'tok_42' },
    exception: {
      values: [
        {
          type: 'PaymentError',
          value: 'declined',
          stacktrace: {
            frames: [
              {
                function: 'pay',
                filename: 'shop/pay.py',
                vars: { api_key: 'pk_9', amount: 3 },
              },
            ],
          },
        },
      ],
    },
  };

  it('stores the payload scrubbed, with the title, culprit and grouping inputs as sent', () => {
    const event = normalizeEvent(sent, ctx);
    const stored = JSON.stringify(event.payload);
    for (const secret of ['Bearer abc', 'sid=s1', 'hunter2', 'tok_42', 'pk_9'])
      expect(stored).not.toContain(secret);
    expect(event.payload['request']).toMatchObject({
      url: 'https://shop.example/checkout',
      headers: { Authorization: '[Filtered]', Cookie: '[Filtered]' },
      data: { password: '[Filtered]', sku: 'x' },
    });
    expect(event.payload['extra']).toEqual({ token: '[Filtered]' });
    expect(event.title).toBe('PaymentError: declined');
    expect(event.payload['title']).toBe(event.title);
    expect(event.exceptions[0]?.frames[0]).toMatchObject({
      function: 'pay',
      filename: 'shop/pay.py',
    });
  });

  it('normalises a stored, scrubbed payload to the same payload (retitle)', () => {
    const once = normalizeEvent(sent, ctx);
    const again = normalizeEvent(once.payload, ctx);
    expect(again.payload).toEqual(once.payload);
    expect(again.title).toBe(once.title);
  });
});
