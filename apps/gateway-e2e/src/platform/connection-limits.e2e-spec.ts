import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import { runMain } from '../support/gateway-process';

interface Closed {
  /** Everything the server wrote before it closed the connection. */
  readonly received: string;
}

/** A raw connection to the gateway at `url`, once connected. */
function open(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** What the server sent until it closed `socket`. */
function closeOf(socket: Socket): Promise<Closed> {
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  return new Promise((resolve) =>
    socket.once('close', () => resolve({ received })),
  );
}

/**
 * `promise`, or undefined once `ms` have passed: without the limits under
 * test the server would hold the connection for minutes, and the test is
 * to fail, not to hang.
 */
function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Writes `text` one byte at a time, every `everyMs`, until the socket closes. */
function trickle(socket: Socket, text: string, everyMs: number): void {
  let next = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || next >= text.length) clearInterval(timer);
    else socket.write(text[next++] ?? '');
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
}

describe('HTTP connection limits of the gateway process (e2e)', () => {
  let database: TestDatabase;
  let dataDir: string;

  beforeAll(async () => {
    database = await openTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'quitanda-limits-'));
  });

  afterAll(async () => {
    await database?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const env = (extra: Record<string, string>) => ({
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    CONTEXTS: 'events',
    LOG_LEVEL: 'info',
    ...extra,
  });

  it('cuts a body trickled past the request timeout, and headers trickled past theirs (408, closed)', async () => {
    let body: Closed | undefined;
    let headers: Closed | undefined;
    const run = await runMain(
      env({ HTTP_HEADERS_TIMEOUT_MS: '500', HTTP_REQUEST_TIMEOUT_MS: '1000' }),
      async (url) => {
        const slowBody = await open(url);
        const bodyClosed = closeOf(slowBody);
        slowBody.write(
          'POST /events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n',
        );
        trickle(slowBody, `{"title":"${'x'.repeat(99_000)}"}`, 50);
        const slowHeaders = await open(url);
        const headersClosed = closeOf(slowHeaders);
        trickle(
          slowHeaders,
          `GET /health/live HTTP/1.1\r\nHost: x\r\n${'X-Slow: y\r\n'.repeat(1_000)}\r\n`,
          20,
        );
        [body, headers] = await Promise.all([
          within(bodyClosed, 5_000),
          within(headersClosed, 5_000),
        ]);
        slowBody.destroy();
        slowHeaders.destroy();
      },
    );
    expect(run.code).toBe(0);
    // Node's default would hold both for 300 s.
    expect(body?.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(headers?.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('cuts a body trickled below the minimum rate with 408 in the events format, long before the request timeout', async () => {
    let body: Closed | undefined;
    const run = await runMain(
      env({
        HTTP_REQUEST_TIMEOUT_MS: '60000',
        HTTP_BODY_RATE_GRACE_MS: '1000',
      }),
      async (url) => {
        const slowBody = await open(url);
        const bodyClosed = closeOf(slowBody);
        slowBody.write(
          'POST /events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n',
        );
        // 5 bytes a second, against the default floor of 240.
        trickle(slowBody, `{"title":"${'x'.repeat(99_000)}"}`, 200);
        body = await within(bodyClosed, 10_000);
        slowBody.destroy();
      },
    );
    expect(run.code).toBe(0);
    // The request timeout (60 s) would have held it six times longer.
    expect(body?.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(body?.received).toContain('request-timeout');
  });

  it('closes connections beyond the cap at once, and serves those within it', async () => {
    let refused: Closed | undefined;
    let served = '';
    const run = await runMain(
      env({ HTTP_MAX_CONNECTIONS: '2' }),
      async (url) => {
        const first = await open(url);
        const second = await open(url);
        const third = await open(url);
        refused = await within(closeOf(third), 5_000);
        third.destroy();
        const answered = new Promise<string>((resolve) =>
          first.once('data', (chunk: Buffer) => resolve(chunk.toString())),
        );
        first.write('GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n');
        served = await answered;
        first.destroy();
        second.destroy();
      },
    );
    expect(run.code).toBe(0);
    expect(refused?.received).toBe('');
    expect(served).toMatch(/^HTTP\/1\.1 200 /);
  });
});
