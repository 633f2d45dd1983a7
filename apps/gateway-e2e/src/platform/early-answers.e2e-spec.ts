import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';

import { BODY_BUDGET } from '@quitanda/http';

import {
  createTrackedProject,
  startErrorTrackingGateway,
} from '../error-tracking/error-tracking-support';
import type { ErrorTrackingGateway } from '../error-tracking/error-tracking-support';
import {
  APP_AUTH,
  APP_KEY,
  MARKETPLACE_ENV,
} from '../marketplace/marketplace-support';

const MIB = 1024 * 1024;
/** The collector's body limit on this gateway. */
const LIMIT = 16 * MIB;
/**
 * Bodies sent here: at most the limit plus 10% the gateway reads and drops
 * behind an early answer, and far more than the kernel's socket buffers
 * hold (a client that writes it all before reading stays blocked unless
 * the gateway reads it). Blank lines after the envelope header: well
 * framed however far the gateway reads.
 */
const OVER_LIMIT_BYTES = 17 * MIB;
const PIECE_BYTES = 64 * 1024;

/** `prefix`, then blank lines up to `bytes`. */
function blankLinesAfter(prefix: string, bytes = LIMIT): Buffer {
  return Buffer.concat([
    Buffer.from(prefix),
    Buffer.alloc(bytes - prefix.length, '\n'),
  ]);
}

interface Pace {
  readonly chunked: boolean;
  /** Pause after each 64 KiB piece; 0: as fast as the socket takes them. */
  readonly gapMs: number;
}

const PACES = {
  'slowly, declared': { chunked: false, gapMs: 2 },
  'chunked at full speed': { chunked: true, gapMs: 0 },
} satisfies Record<string, Pace>;

interface Outcome {
  /** The status line read, if any. */
  readonly status?: string;
  /** A socket error the client saw (ECONNRESET, EPIPE), if any. */
  readonly error?: string;
}

/**
 * A client that writes its whole request before it reads anything (as
 * Python's http stack does), then reads the status line: the body chunked
 * or with its Content-Length, in 64 KiB pieces `pace.gapMs` apart.
 */
function writeThenRead(
  url: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer,
  pace: Pace,
  method = 'POST',
): Promise<Outcome> {
  const { hostname, port } = new URL(url);
  const { chunked, gapMs } = pace;
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    let error: string | undefined;
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error ??= e.code ?? e.message;
    });
    socket.on('close', () => {
      const end = answer.indexOf('\r\n');
      resolve({ status: end >= 0 ? answer.slice(0, end) : undefined, error });
    });
    const head = Object.entries({
      Host: hostname,
      ...headers,
      ...(chunked
        ? { 'Transfer-Encoding': 'chunked' }
        : { 'Content-Length': String(body.length) }),
    })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`${method} ${path} HTTP/1.1\r\n${head}\r\n`);
    const frame = (bytes: Buffer) =>
      chunked
        ? Buffer.concat([
            Buffer.from(`${bytes.length.toString(16)}\r\n`),
            bytes,
            Buffer.from('\r\n'),
          ])
        : bytes;
    let sent = 0;
    const read = () => {
      socket.on('data', (data: Buffer) => {
        answer += data.toString('latin1');
        if (answer.includes('\r\n')) socket.destroy();
      });
    };
    const writeMore = (): void => {
      while (sent < body.length && !socket.destroyed) {
        const piece = body.subarray(sent, sent + PIECE_BYTES);
        sent += piece.length;
        const more = socket.write(frame(piece));
        if (gapMs > 0) {
          setTimeout(writeMore, gapMs);
          return;
        }
        if (!more) {
          socket.once('drain', writeMore);
          return;
        }
      }
      if (socket.destroyed) return;
      socket.write(chunked ? '0\r\n\r\n' : '', read);
    };
    writeMore();
  });
}

/**
 * Every early answer of the collector is heard (contract, "Limits": the
 * gateway sends it, then reads and drops the rest of the body, up to the
 * body limit plus 10%, before closing): a client that writes a large body
 * before reading reads the status line, never a reset connection; three
 * times over for each answer, written slowly with a declared length and
 * chunked at full speed.
 */
describe('early answers reach a client still writing (e2e)', () => {
  let gw: ErrorTrackingGateway;
  let project: { id: number; publicKey: string };

  beforeAll(async () => {
    gw = await startErrorTrackingGateway({
      ERROR_TRACKING_MAX_BODY_BYTES: String(LIMIT),
    });
    project = await createTrackedProject(gw);
  });

  afterAll(() => gw?.close());

  const envelope = (query = '') =>
    `/api/v4/error_tracking/collector/api/${project.id}/envelope/${query}`;

  let incompressible: Buffer | undefined;
  interface Case {
    readonly path: string;
    readonly headers?: Record<string, string>;
    readonly body: Buffer;
  }
  const cases: ReadonlyArray<[string, () => Case, string]> = [
    [
      '413 (over the body limit)',
      () => ({
        path: envelope(`?sentry_key=${project.publicKey}`),
        body: blankLinesAfter('{}\n', OVER_LIMIT_BYTES),
      }),
      '413',
    ],
    [
      '401 (no key)',
      () => ({ path: envelope(), body: blankLinesAfter('{}\n') }),
      '401',
    ],
    [
      '401 (no key, gzip)',
      // What gzip cannot shrink (as SDKs' attachments): as many bytes sent.
      () => ({
        path: envelope(),
        headers: { 'Content-Encoding': 'gzip' },
        body: (incompressible ??= gzipSync(
          Buffer.concat([Buffer.from('{}\n'), randomBytes(LIMIT - 64 * 1024)]),
          { level: 1 },
        )),
      }),
      '401',
    ],
    [
      '403 (unknown key)',
      () => ({
        path: envelope('?sentry_key=glet_ffffffffffffffffffffffffffffffff'),
        body: blankLinesAfter('{}\n'),
      }),
      '403',
    ],
    [
      '400 (keys that disagree)',
      () => ({
        path: envelope(`?sentry_key=${project.publicKey}`),
        headers: {
          'X-Sentry-Auth':
            'Sentry sentry_key=glet_eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee',
        },
        body: blankLinesAfter('{}\n'),
      }),
      '400',
    ],
    [
      '429 (the body budget busy)',
      () => ({
        path: envelope(`?sentry_key=${project.publicKey}`),
        body: blankLinesAfter('{}\n{"type":"event","length":1000}\n'),
      }),
      '429',
    ],
  ];

  describe.each(Object.keys(PACES) as Array<keyof typeof PACES>)(
    'a body written %s',
    (pace) => {
      it.each(cases)(
        'hears %s, 3 times of 3',
        async (_name, request, status) => {
          const busy =
            status === '429'
              ? jest.spyOn(BODY_BUDGET, 'tryTake').mockReturnValue(false)
              : undefined;
          try {
            for (let attempt = 0; attempt < 3; attempt++) {
              const { path, headers = {}, body } = request();
              const outcome = await writeThenRead(
                gw.url,
                path,
                headers,
                body,
                PACES[pace],
              );
              expect(outcome).toEqual({
                status: expect.stringMatching(
                  new RegExp(`^HTTP/1\\.1 ${status} `),
                ),
                error: undefined,
              });
            }
          } finally {
            busy?.mockRestore();
          }
        },
      );
    },
  );
});

/**
 * The client's transfer is not the request's deadline (`DB_TIMEOUT_MS`,
 * what the server may wait for the database): a client whose body takes
 * longer than that to arrive behind an early answer still hears it (the
 * rest is read within the request timeout, `HTTP_REQUEST_TIMEOUT_MS`). A
 * 101 MiB envelope over a 100 Mbit/s link takes 9 s, and was cut at 5 s.
 */
describe('early answers reach a client writing past the request deadline (e2e)', () => {
  /** The request deadline here: shorter than any body below takes to send. */
  const DEADLINE_MS = 1500;
  /** 64 KiB pieces 75 ms apart: 2.4 s for these bodies. */
  const SLOW = { gapMs: 75 } as const;
  const SLOW_LIMIT = 2 * MIB;

  let gw: ErrorTrackingGateway;
  let project: { id: number; publicKey: string };

  beforeAll(async () => {
    gw = await startErrorTrackingGateway({
      ERROR_TRACKING_MAX_BODY_BYTES: String(SLOW_LIMIT),
      DB_TIMEOUT_MS: String(DEADLINE_MS),
    });
    project = await createTrackedProject(gw);
  });

  afterAll(() => gw?.close());

  const envelope = (key?: string) =>
    `/api/v4/error_tracking/collector/api/${project.id}/envelope/${key ? `?sentry_key=${key}` : ''}`;

  const cases: ReadonlyArray<[string, boolean, () => string, Buffer, string]> =
    [
      [
        '413 (its declared length)',
        false,
        () => envelope(project.publicKey),
        blankLinesAfter('{}\n', SLOW_LIMIT + 64 * 1024),
        '413',
      ],
      ...[false, true].flatMap(
        (chunked): Array<[string, boolean, () => string, Buffer, string]> => [
          [
            "413 (an event item's header)",
            chunked,
            () => envelope(project.publicKey),
            blankLinesAfter(
              `{}\n{"type":"event","length":${MIB + 1}}\n`,
              SLOW_LIMIT,
            ),
            '413',
          ],
          [
            '401 (no key)',
            chunked,
            () => envelope(),
            blankLinesAfter('{}\n', SLOW_LIMIT),
            '401',
          ],
        ],
      ),
    ];

  it.each(cases)(
    'hears %s (chunked: %s)',
    async (_name, chunked, path, body, status) => {
      const outcome = await writeThenRead(gw.url, path(), {}, body, {
        ...SLOW,
        chunked,
      });
      expect(outcome).toEqual({
        status: expect.stringMatching(new RegExp(`^HTTP/1\\.1 ${status} `)),
        error: undefined,
      });
    },
  );
});

/**
 * Upload routes check their caller before they read a body larger than the
 * JSON APIs' limit: their answer is heard too, the rest of the body read up
 * to the upload limit (plus 10%), not the 1 MiB assumed for a route that
 * noted none.
 */
describe('early answers of upload routes reach a client still writing (e2e)', () => {
  const UPLOAD_LIMIT = 32 * MIB;
  /** Under both routes' limits, far over what the socket buffers hold. */
  const UPLOAD = Buffer.alloc(24 * MIB, 'u');
  const FULL_SPEED = { chunked: false, gapMs: 0 } as const;

  let gw: ErrorTrackingGateway;

  beforeAll(async () => {
    gw = await startErrorTrackingGateway({
      ...MARKETPLACE_ENV,
      MARKETPLACE_MAX_UPLOAD_BYTES: String(UPLOAD_LIMIT),
    });
  });

  afterAll(() => gw?.close());

  const heard = (status: string) => ({
    status: expect.stringMatching(new RegExp(`^HTTP/1\\.1 ${status} `)),
    error: undefined,
  });

  it('hears 401 for an upload to a spent upload URL (marketplace)', async () => {
    const created = await gw.http
      .post(`/blob/${APP_KEY}`)
      .set('Authorization', APP_AUTH)
      .send({ _filename: 'a.bin', mimeType: 'text/plain', size: 4 })
      .expect(201);
    const url = new URL(created.body._uploadURL);
    const path = `${url.pathname}${url.search}`;
    await gw.http.put(path).send(Buffer.from('1234')).expect(201);
    await expect(
      writeThenRead(gw.url, path, {}, UPLOAD, FULL_SPEED, 'PUT'),
    ).resolves.toEqual(heard('401'));
  });

  it("hears 401 for sentry-cli's chunks without a token", async () => {
    await expect(
      writeThenRead(
        gw.url,
        '/api/0/organizations/quitanda/chunk-upload/',
        { 'Content-Type': 'multipart/form-data; boundary=x' },
        UPLOAD,
        FULL_SPEED,
      ),
    ).resolves.toEqual(heard('401'));
  });
});
