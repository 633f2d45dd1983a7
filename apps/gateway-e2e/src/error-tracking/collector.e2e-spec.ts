import { monitorEventLoopDelay } from 'node:perf_hooks';
import {
  brotliCompressSync,
  deflateRawSync,
  deflateSync,
  gzipSync,
} from 'node:zlib';

import {
  FIXTURE_PROJECT_ID,
  defined,
  loadBrowserSourceMapFixture,
} from '@quitanda/testing';

import { startDatabaseProxy } from '../support/database-proxy';
import type { DatabaseProxy } from '../support/database-proxy';

import {
  ROOT_TOKEN,
  createTrackedProject,
  registerFixtureProject,
  sendRaw,
  startErrorTrackingGateway,
} from './error-tracking-support';
import type {
  ErrorTrackingGateway,
  RawResponse,
} from './error-tracking-support';
import { originalFrames, replayFlow } from './sourcemaps-support';

/** A stored stack frame, the fields compared. */
interface JsonFrame {
  readonly abs_path?: string;
  readonly lineno?: number;
  readonly colno?: number;
  readonly function?: string | null;
}

/** An envelope (header {"event_id":"0123…cdef"}, one event "zstd encoded") compressed with the zstd CLI. */
const ZSTD_ENVELOPE = Buffer.from(
  'KLUv/QRYvQIAAoUSGnBpdeAqFCm5ar0jywEAMAhQ7f9/zHf6fz3UZ9qptqxmj2c2vF+X2ouFL2H1C+i9G9Q/IKDlmVbfRECCAKBhFiVBDqt3DWB7vGUDADQF0GrwDTKdAMCeAg==',
  'base64',
);
/** 16 MiB of zeros as one zstd frame (zstd -19): a decompression bomb. */
const ZSTD_BOMB = Buffer.from(
  'KLUv/QRoTAAACAABAPz/ORACAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAgAQAAIAEAACABAAAwAQAAvY4l4=',
  'base64',
);

function hex(n: number): string {
  return n.toString(16).padStart(32, '0');
}

let sequence = 1;
function nextId(): string {
  return hex(Date.now() * 1000 + sequence++);
}

function envelope(...lines: string[]): Buffer {
  return Buffer.from(lines.join('\n'));
}

function eventEnvelope(message: string, eventId = nextId()): Buffer {
  return envelope(
    JSON.stringify({ event_id: eventId }),
    JSON.stringify({ type: 'event' }),
    JSON.stringify({ message, level: 'info' }),
  );
}

async function storedEvents(
  gw: ErrorTrackingGateway,
  projectId: number,
  eventId: string,
): Promise<number> {
  const rows = await gw.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM error_tracking.events WHERE project_id = $1 AND event_id = $2',
    [projectId, eventId],
  );
  return defined(rows[0]).n;
}

describe('Sentry collector (e2e)', () => {
  let gw: ErrorTrackingGateway;
  let project: { id: number; publicKey: string };
  let other: { id: number; publicKey: string };

  beforeAll(async () => {
    gw = await startErrorTrackingGateway();
    project = await createTrackedProject(gw);
    other = await createTrackedProject(gw);
  });

  afterAll(() => gw?.close());

  function envelopePath(
    query = `?sentry_key=${project.publicKey}`,
    slash = '/',
  ) {
    return `/api/v4/error_tracking/collector/api/${project.id}/envelope${slash}${query}`;
  }

  function post(
    body: Buffer,
    headers: Record<string, string> = {},
    path = envelopePath(),
  ): Promise<RawResponse> {
    return sendRaw(gw.url, { path, headers, body });
  }

  describe('routes, CORS and transports', () => {
    it.each([
      ['envelope', '/'],
      ['envelope', ''],
      ['store', '/'],
      ['store', ''],
    ])('accepts POST .../%s with trailing "%s"', async (endpoint, slash) => {
      const eventId = nextId();
      const body =
        endpoint === 'store'
          ? Buffer.from(JSON.stringify({ event_id: eventId, message: 'hi' }))
          : eventEnvelope('hi', eventId);
      const res = await post(
        body,
        {},
        `/api/v4/error_tracking/collector/api/${project.id}/${endpoint}${slash}?sentry_key=${project.publicKey}`,
      );
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ id: eventId });
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-expose-headers']).toMatch(
        /x-sentry-rate-limits/,
      );
      expect(await storedEvents(gw, project.id, eventId)).toBe(1);
    });

    it('answers CORS preflights for browser SDKs', async () => {
      for (const path of [envelopePath('', '/'), envelopePath('', '')]) {
        const res = await sendRaw(gw.url, {
          method: 'OPTIONS',
          path,
          headers: {
            Origin: 'https://shop.example.com',
            'Access-Control-Request-Method': 'POST',
            'Access-Control-Request-Headers':
              'content-type, x-sentry-auth, content-encoding',
          },
        });
        expect(res.status).toBe(200);
        expect(res.headers['access-control-allow-origin']).toBe('*');
        expect(res.headers['access-control-allow-headers']).toMatch(
          /x-sentry-auth/,
        );
        expect(res.headers['access-control-allow-headers']).toMatch(
          /content-encoding/,
        );
        expect(res.headers['access-control-expose-headers']).toMatch(
          /retry-after/,
        );
      }
    });

    it.each([
      ['the query string', 'query'],
      [
        'X-Sentry-Auth (any order and spacing, secret ignored)',
        'x-sentry-auth',
      ],
      ['Authorization: Sentry', 'authorization'],
    ])('authenticates with the key in %s', async (_name, transport) => {
      const key = project.publicKey;
      const headers: Record<string, string> =
        transport === 'x-sentry-auth'
          ? {
              'X-Sentry-Auth': `Sentry sentry_version=7,sentry_client=x/1,  sentry_key=${key} , sentry_secret=ignored`,
            }
          : transport === 'authorization'
            ? { Authorization: `Sentry sentry_key=${key}, sentry_version=7` }
            : {};
      const res = await post(
        eventEnvelope('auth'),
        headers,
        envelopePath(transport === 'query' ? `?sentry_key=${key}` : ''),
      );
      expect(res.status).toBe(200);
    });

    it('authenticates with the envelope dsn header alone', async () => {
      const eventId = nextId();
      const body = envelope(
        JSON.stringify({
          event_id: eventId,
          dsn: `http://${project.publicKey}@h/api/v4/error_tracking/collector/${project.id}`,
        }),
        JSON.stringify({ type: 'event' }),
        JSON.stringify({ message: 'dsn' }),
      );
      const res = await post(body, {}, envelopePath(''));
      expect(res.status).toBe(200);
      expect(await storedEvents(gw, project.id, eventId)).toBe(1);
    });

    it('accepts any Content-Type and chunked bodies', async () => {
      for (const type of [
        'text/plain;charset=UTF-8',
        'application/json',
        'application/x-sentry-envelope',
        'application/octet-stream',
      ]) {
        const res = await post(eventEnvelope(type), { 'Content-Type': type });
        expect(res.status).toBe(200);
      }
      const chunked = await sendRaw(gw.url, {
        path: envelopePath(),
        body: eventEnvelope('chunked'),
        chunked: true,
      });
      expect(chunked.status).toBe(200);
    });
  });

  describe('authentication failures', () => {
    it('401 without any key', async () => {
      const res = await post(eventEnvelope('nokey'), {}, envelopePath(''));
      expect(res.status).toBe(401);
      expect(res.json()).toEqual({
        detail: expect.stringMatching(/authentication/i),
      });
      expect(res.headers['access-control-allow-origin']).toBe('*');
    });

    it("403 for an unknown key, another project's key, an unknown project", async () => {
      const unknown = await post(
        eventEnvelope('x'),
        {},
        envelopePath('?sentry_key=glet_ffffffffffffffffffffffffffffffff'),
      );
      expect(unknown.status).toBe(403);
      expect(unknown.json()).toEqual({ detail: expect.any(String) });
      const foreign = await post(
        eventEnvelope('x'),
        {},
        envelopePath(`?sentry_key=${other.publicKey}`),
      );
      expect(foreign.status).toBe(403);
      const nowhere = await sendRaw(gw.url, {
        path: `/api/v4/error_tracking/collector/api/999999/envelope/?sentry_key=${project.publicKey}`,
        body: eventEnvelope('x'),
      });
      expect(nowhere.status).toBe(403);
    });

    it("400 when the request's transports carry different keys", async () => {
      const res = await post(eventEnvelope('conflict'), {
        'X-Sentry-Auth': `Sentry sentry_key=${other.publicKey}, sentry_version=7`,
      });
      expect(res.status).toBe(400);
    });

    it("lets the request's key decide over another key in the envelope dsn", async () => {
      const eventId = nextId();
      const inBody = envelope(
        JSON.stringify({
          event_id: eventId,
          dsn: `http://${other.publicKey}@h/api/v4/error_tracking/collector/${other.id}`,
        }),
        JSON.stringify({ type: 'event' }),
        JSON.stringify({ message: 'x' }),
      );
      expect((await post(inBody)).status).toBe(200);
      expect(await storedEvents(gw, project.id, eventId)).toBe(1);
    });
  });

  describe('encodings', () => {
    const plain = (message: string, eventId: string) =>
      eventEnvelope(message, eventId);

    it.each([
      ['identity', (b: Buffer) => b],
      ['', (b: Buffer) => b],
      ['gzip', (b: Buffer) => gzipSync(b)],
      ['deflate', (b: Buffer) => deflateSync(b)],
      ['deflate', (b: Buffer) => deflateRawSync(b)],
      ['br', (b: Buffer) => brotliCompressSync(b)],
    ])('decodes Content-Encoding "%s"', async (encoding, encode) => {
      const eventId = nextId();
      const res = await post(encode(plain(`enc ${encoding}`, eventId)), {
        'Content-Encoding': encoding,
      });
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ id: eventId });
    });

    it('decodes zstd', async () => {
      const res = await post(ZSTD_ENVELOPE, { 'Content-Encoding': 'zstd' });
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ id: '0123456789abcdef0123456789abcdef' });
    });

    it('415 for an unsupported encoding, 400 for a corrupt body', async () => {
      const res = await post(eventEnvelope('x'), {
        'Content-Encoding': 'compress',
      });
      expect(res.status).toBe(415);
      expect(res.json()['detail']).toMatch(/compress/);
      const corrupt = await post(Buffer.from('not gzip at all'), {
        'Content-Encoding': 'gzip',
      });
      expect(corrupt.status).toBe(400);
    });
  });

  describe('envelopes', () => {
    it('stores the event of a multi-item envelope whatever its position, and its binary attachment sent before it', async () => {
      const eventId = nextId();
      const binary = Buffer.from([0, 10, 255, 10, 13, 0x7b]);
      const event = JSON.stringify({ message: 'multi' });
      const body = Buffer.concat([
        Buffer.from(`{"event_id":"${eventId}"}\n`),
        Buffer.from(
          `{"type":"attachment","length":${binary.length},"filename":"a.bin"}\n`,
        ),
        binary,
        Buffer.from(
          '\n{"type":"session"}\n{"sid":"s-1","status":"ok","attrs":{"release":"9.9.9"}}\n',
        ),
        Buffer.from(
          `{"type":"event","length":${Buffer.byteLength(event)}}\n${event}\n`,
        ),
        Buffer.from(
          '{"type":"client_report"}\n{"discarded_events":[{"reason":"queue_overflow","category":"error","quantity":3}]}\n',
        ),
      ]);
      const res = await post(body);
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ id: eventId });
      expect(await storedEvents(gw, project.id, eventId)).toBe(1);
      const discarded = await gw.query<{
        source: string;
        reason: string;
        category: string;
        quantity: string;
      }>(
        `SELECT source, reason, category, quantity::text FROM error_tracking.discarded_events
          WHERE project_id = $1 ORDER BY source, reason`,
        [project.id],
      );
      expect(discarded).toEqual(
        expect.arrayContaining([
          {
            source: 'client',
            reason: 'queue_overflow',
            category: 'error',
            quantity: '3',
          },
        ]),
      );
      expect(discarded.map((d) => d.category)).not.toContain('attachment');
      const attachments = await gw.query<{ filename: string; size: number }>(
        `SELECT filename, size FROM error_tracking.event_attachments
          WHERE project_id = $1 AND event_id = $2`,
        [project.id, eventId],
      );
      expect(attachments).toEqual([{ filename: 'a.bin', size: binary.length }]);
    });

    it('skips a bad item and keeps the good ones (200)', async () => {
      const eventId = nextId();
      const body = envelope(
        JSON.stringify({ event_id: eventId }),
        JSON.stringify({ type: 'session' }),
        '{not json',
        JSON.stringify({ type: 'transaction' }),
        JSON.stringify({ type: 'transaction', spans: [] }),
        JSON.stringify({ type: 'event' }),
        JSON.stringify({ message: 'survivor' }),
      );
      const res = await post(body);
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ id: eventId });
      expect(await storedEvents(gw, project.id, eventId)).toBe(1);
    });

    it('answers {} to an envelope without an event', async () => {
      const res = await post(
        envelope(
          '{}',
          JSON.stringify({ type: 'check_in' }),
          '{"check_in_id":"x"}',
        ),
      );
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({});
    });

    it.each([
      [
        'a header that is not JSON',
        '{oops\n{"type":"event"}\n{"message":"x"}',
        false,
      ],
      [
        'a header that is not an object',
        '[1]\n{"type":"event"}\n{"message":"x"}',
        false,
      ],
      ['an empty body', '', false],
      ['an item header that is not JSON', 'nope\n{"message":"x"}', true],
      [
        'an item header that is not an object',
        '"event"\n{"message":"x"}',
        true,
      ],
      [
        'a length running past the end',
        '{"type":"event","length":500}\n{"message":"x"}',
        true,
      ],
      [
        'a payload longer than its length',
        '{"type":"event","length":3}\n{"message":"x"}',
        true,
      ],
    ])(
      '400 with nothing stored for %s',
      async (_name, broken, afterGoodItem) => {
        const eventId = nextId();
        // A good event first: broken framing later refuses the whole envelope.
        const body = afterGoodItem
          ? Buffer.concat([
              eventEnvelope('kept?', eventId),
              Buffer.from(`\n${broken}`),
            ])
          : Buffer.from(broken);
        const res = await post(body);
        expect(res.status).toBe(400);
        expect(res.json()).toEqual({ detail: expect.any(String) });
        expect(await storedEvents(gw, project.id, eventId)).toBe(0);
      },
    );

    it('400 for a store body that is not a JSON object', async () => {
      const res = await sendRaw(gw.url, {
        path: `/api/v4/error_tracking/collector/api/${project.id}/store/?sentry_key=${project.publicKey}`,
        body: Buffer.from('[1,2,3]'),
      });
      expect(res.status).toBe(400);
    });

    it('stores a duplicate event id once and counts it once', async () => {
      const eventId = nextId();
      const body = eventEnvelope('duplicate', eventId);
      const [a, b] = await Promise.all([post(body), post(body)]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect((await post(body)).status).toBe(200);
      expect(await storedEvents(gw, project.id, eventId)).toBe(1);
      const [row] = await gw.query<{ count: string }>(
        `SELECT e.count::text FROM error_tracking.errors e
           JOIN error_tracking.events ev ON ev.error_id = e.id WHERE ev.event_id = $1`,
        [eventId],
      );
      expect(defined(row).count).toBe('1');
    });
  });

  describe('limits', () => {
    let small: ErrorTrackingGateway;
    let smallProject: { id: number; publicKey: string };

    beforeAll(async () => {
      small = await startErrorTrackingGateway({
        ERROR_TRACKING_MAX_BODY_BYTES: String(64 * 1024),
        ERROR_TRACKING_MAX_ENVELOPE_BYTES: String(1024 * 1024),
        ERROR_TRACKING_MAX_EVENT_BYTES: String(256 * 1024),
      });
      smallProject = await createTrackedProject(small);
    });

    afterAll(() => small?.close());

    function postSmall(
      body: Buffer,
      headers: Record<string, string> = {},
      chunked = false,
    ) {
      return sendRaw(small.url, {
        path: `/api/v4/error_tracking/collector/api/${smallProject.id}/envelope/?sentry_key=${smallProject.publicKey}`,
        headers,
        body,
        chunked,
      });
    }

    it('413 for a body over the limit, declared or streamed', async () => {
      const big = eventEnvelope('x'.repeat(100 * 1024));
      expect((await postSmall(big)).status).toBe(413);
      const streamed = await postSmall(big, {}, true);
      expect(streamed.status).toBe(413);
      expect(streamed.json()).toEqual({ detail: expect.any(String) });
    });

    it('413 for one event over the limit once decompressed', async () => {
      const res = await postSmall(
        gzipSync(eventEnvelope('y'.repeat(300 * 1024))),
        { 'Content-Encoding': 'gzip' },
      );
      expect(res.status).toBe(413);
    });

    it.each([
      ['gzip', () => gzipSync(Buffer.alloc(16 * 1024 * 1024))],
      ['br', () => brotliCompressSync(Buffer.alloc(16 * 1024 * 1024))],
      ['zstd', () => ZSTD_BOMB],
    ])(
      '413 for a %s decompression bomb, without inflating it',
      async (encoding, bomb) => {
        const body = bomb();
        expect(body.length).toBeLessThan(64 * 1024);
        const before = process.memoryUsage().rss;
        const res = await postSmall(body, { 'Content-Encoding': encoding });
        expect(res.status).toBe(413);
        // The gateway runs in this process: it must not have held 16 MiB.
        expect(process.memoryUsage().rss - before).toBeLessThan(
          12 * 1024 * 1024,
        );
      },
    );
  });

  describe('envelopes of millions of items', () => {
    /** An envelope header, then `count` tiny items (`{}` header, `{}` payload). */
    function manyItems(header: object, count: number): Buffer {
      return Buffer.concat([
        Buffer.from(`${JSON.stringify(header)}\n`),
        Buffer.alloc(count * 6, '{}\n{}\n'),
      ]);
    }

    /** The longest the event loop (gateway and test share it) stood still meanwhile. */
    async function maxLoopDelayMs<T>(work: () => Promise<T>) {
      const histogram = monitorEventLoopDelay({ resolution: 10 });
      histogram.enable();
      try {
        const result = await work();
        return { result, delayMs: histogram.max / 1e6 };
      } finally {
        histogram.disable();
      }
    }

    // 2.5 million items, 15 MB inflated, 15 KB as sent: once took 4-7 s
    // of event loop to answer 401.
    const ITEMS = 2_500_000;

    it.each([
      ['no key at all', {}, 401],
      [
        'a wrong key in the dsn',
        { dsn: 'http://glet_ffffffffffffffffffffffffffffffff@h/1' },
        403,
      ],
    ])(
      'answers %s after the envelope header, without reading on',
      async (_name, header, status) => {
        const body = gzipSync(manyItems(header, ITEMS));
        const { result, delayMs } = await maxLoopDelayMs(() =>
          post(body, { 'Content-Encoding': 'gzip' }, envelopePath('')),
        );
        expect(result.status).toBe(status);
        expect(result.json()).toEqual({ detail: expect.any(String) });
        expect(delayMs).toBeLessThan(500);
      },
    );

    it('413 past 1,000 items, every type counted, whatever carries the key', async () => {
      const enough = await post(manyItems({}, 1_000));
      expect(enough.status).toBe(200);
      const dsn = `http://${project.publicKey}@h/api/v4/error_tracking/collector/${project.id}`;
      for (const [body, path] of [
        [manyItems({}, 1_001), envelopePath()],
        [manyItems({ dsn }, 1_001), envelopePath('')],
      ] as const) {
        const res = await post(body, {}, path);
        expect(res.status).toBe(413);
        expect(res.json()).toEqual({
          detail: expect.stringMatching(/more than 1000 items/),
        });
      }
      const { result, delayMs } = await maxLoopDelayMs(() =>
        post(gzipSync(manyItems({}, ITEMS)), { 'Content-Encoding': 'gzip' }),
      );
      expect(result.status).toBe(413);
      expect(delayMs).toBeLessThan(500);
    });
  });

  describe('rate limits', () => {
    it('answers 429 with Retry-After and X-Sentry-Rate-Limits, across replicas', async () => {
      let sharedUrl = '';
      const first = await startErrorTrackingGateway(async (url) => {
        sharedUrl = url;
        return { ERROR_TRACKING_RATE_LIMIT_PER_MINUTE: '3' };
      });
      const second = await startErrorTrackingGateway(async () => ({
        DATABASE_URL: sharedUrl,
        ERROR_TRACKING_RATE_LIMIT_PER_MINUTE: '3',
      }));
      try {
        const tracked = await createTrackedProject(first);
        const path = `/api/v4/error_tracking/collector/api/${tracked.id}/envelope/?sentry_key=${tracked.publicKey}`;
        // Fill the key's window on one replica, then ask the other.
        let limited: RawResponse | undefined;
        for (let i = 0; i < 10 && !limited; i++) {
          const target = i < 3 ? first : second;
          const res = await sendRaw(target.url, {
            path,
            body: eventEnvelope(`rl ${i}`),
          });
          if (res.status === 429) limited = res;
          else expect(res.status).toBe(200);
        }
        const res = defined(limited, 'a 429');
        const retryAfter = Number(res.headers['retry-after']);
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(60);
        expect(res.headers['x-sentry-rate-limits']).toBe(
          `${retryAfter}:error:key`,
        );
        expect(res.json()).toEqual({ detail: expect.any(String) });
        const [window] = await first.query<{ quantity: number }>(
          `SELECT max(quantity) AS quantity FROM error_tracking.rate_limit_windows w
             JOIN error_tracking.client_keys k ON k.id = w.key_id
            WHERE k.public_key = $1 AND w.category = 'error'`,
          [tracked.publicKey],
        );
        expect(defined(window).quantity).toBeGreaterThan(3);
      } finally {
        await second.close();
        await first.close();
      }
    });
  });

  describe('database outage', () => {
    let proxy: DatabaseProxy | undefined;
    const proxied = (env: Record<string, string> = {}) =>
      startErrorTrackingGateway(async (url) => {
        proxy = await startDatabaseProxy(url);
        return { ...env, DATABASE_URL: proxy.url };
      });

    afterEach(() => proxy?.close());

    /** The spool drains on its own once the database answers. */
    async function drainedInto(
      gw: ErrorTrackingGateway,
      projectId: number,
      eventId: string,
    ): Promise<void> {
      const deadline = Date.now() + 15_000;
      while (
        (await storedEvents(gw, projectId, eventId)) === 0 &&
        Date.now() < deadline
      )
        await new Promise((resolve) => setTimeout(resolve, 50));
    }

    it("spools a known key's events while the database is down (200, stored once it is back); an unknown key gets 503 with Retry-After", async () => {
      const outage = await proxied();
      const db = defined(proxy);
      try {
        const tracked = await createTrackedProject(outage);
        const path = `/api/v4/error_tracking/collector/api/${tracked.id}/envelope/?sentry_key=${tracked.publicKey}`;
        const acknowledged = nextId();
        expect(
          (
            await sendRaw(outage.url, {
              path,
              body: eventEnvelope('before', acknowledged),
            })
          ).status,
        ).toBe(200);

        await db.down();
        const spooled = nextId();
        const during = await sendRaw(outage.url, {
          path,
          body: eventEnvelope('during', spooled),
        });
        expect(during.status).toBe(200);
        expect(during.json()).toEqual({ id: spooled });
        // A key this gateway has not seen cannot be checked now.
        const refused = await sendRaw(outage.url, {
          path: path.replace(tracked.publicKey, 'f'.repeat(32)),
          body: eventEnvelope('during'),
        });
        expect(refused.status).toBe(503);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
        expect(refused.json()).toEqual({ detail: expect.any(String) });

        await db.up();
        await drainedInto(outage, tracked.id, spooled);
        expect(await storedEvents(outage, tracked.id, spooled)).toBe(1);
        expect(await storedEvents(outage, tracked.id, acknowledged)).toBe(1);
      } finally {
        await outage.close();
      }
    });

    it('keeps an event sent with an attachment while the database is down (spooled, 200); the attachment, which the spool does not take, is counted as discarded once it drains', async () => {
      const outage = await proxied();
      const db = defined(proxy);
      try {
        const tracked = await createTrackedProject(outage);
        const path = `/api/v4/error_tracking/collector/api/${tracked.id}/envelope/?sentry_key=${tracked.publicKey}`;
        // The key is cached before the outage.
        const before = await sendRaw(outage.url, {
          path,
          body: eventEnvelope('before'),
        });
        expect(before.status).toBe(200);

        await db.down();
        const spooled = nextId();
        const attachment = Buffer.alloc(64 * 1024, 'a');
        const during = await sendRaw(outage.url, {
          path,
          body: Buffer.concat([
            eventEnvelope('during', spooled),
            Buffer.from(
              `\n{"type":"attachment","filename":"log.txt","length":${attachment.length}}\n`,
            ),
            attachment,
          ]),
        });
        expect(during.status).toBe(200);
        expect(during.json()).toEqual({ id: spooled });

        await db.up();
        await drainedInto(outage, tracked.id, spooled);
        expect(await storedEvents(outage, tracked.id, spooled)).toBe(1);
        const discarded = await outage.query(
          `SELECT reason, quantity::int FROM error_tracking.discarded_events
            WHERE project_id = $1 AND category = 'attachment'`,
          [tracked.id],
        );
        expect(discarded).toEqual([
          { reason: 'database_unavailable', quantity: 1 },
        ]);
        const [kept] = await outage.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM error_tracking.event_attachments
            WHERE project_id = $1 AND event_id IS NOT NULL`,
          [tracked.id],
        );
        expect(defined(kept).n).toBe(0);
      } finally {
        await outage.close();
      }
    });

    it('spools a browser event whose source map is not cached, stalled or down (200), and stores it with its frames resolved once the database is back', async () => {
      const outage = await proxied({ DB_TIMEOUT_MS: '1000' });
      const db = defined(proxy);
      const fixture = loadBrowserSourceMapFixture('001-debug-id.json');
      const sent = Buffer.from(fixture.body.raw_base64, 'base64');
      const browserEvent = (eventId: string) =>
        sendRaw(outage.url, {
          method: fixture.replay.method,
          path: fixture.replay.url,
          headers: fixture.replay.headers,
          body: Buffer.from(
            sent.toString('utf8').replaceAll(fixture.expect.event_id, eventId),
          ),
        });
      try {
        await registerFixtureProject(outage);
        await replayFlow(outage, '3.8.0-debug-id-upload', ROOT_TOKEN);
        // The key is known to the gateway; the map is not (no event needed it).
        expect(
          (
            await sendRaw(outage.url, {
              path: fixture.replay.url,
              body: eventEnvelope('before'),
            })
          ).status,
        ).toBe(200);

        db.stall();
        const whileStalled = nextId();
        const stalled = await browserEvent(whileStalled);
        expect([stalled.status, stalled.json()]).toEqual([
          200,
          { id: whileStalled },
        ]);
        await db.down();
        const whileDown = nextId();
        const down = await browserEvent(whileDown);
        expect([down.status, down.json()]).toEqual([200, { id: whileDown }]);

        await db.up();
        for (const eventId of [whileStalled, whileDown]) {
          await drainedInto(outage, FIXTURE_PROJECT_ID, eventId);
          const [row] = await outage.query<{
            payload: Record<string, unknown>;
            culprit: string;
          }>(
            `SELECT e.payload, r.culprit FROM error_tracking.events e
               JOIN error_tracking.errors r ON r.id = e.error_id
              WHERE e.project_id = $1 AND e.event_id = $2`,
            [FIXTURE_PROJECT_ID, eventId],
          );
          const payload = defined(row, `event ${eventId} stored`).payload;
          const exception = payload['exception'] as {
            values: Array<{ stacktrace: { frames: JsonFrame[] } }>;
          };
          expect(
            defined(exception.values[0]).stacktrace.frames.map((f) => [
              f.abs_path,
              f.lineno,
              f.colno,
              f.function ?? null,
            ]),
          ).toEqual(originalFrames(fixture));
          expect(payload['errors']).toBeUndefined();
          expect(defined(row).culprit).toBe('validateItem(src/validate.js)');
        }
      } finally {
        await outage.close();
      }
    });
  });

  it('keeps secrets out of the ROOT token flow (sanity: root works here)', async () => {
    const res = await gw.http
      .get('/api/v4/user')
      .set('PRIVATE-TOKEN', ROOT_TOKEN)
      .expect(200);
    expect(res.body.username).toBe('root');
  });
});
