import { once } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';

import { noteBodyLimit } from '@quitanda/http';

import { unreadBodyDrainMiddleware } from './unread-body-drain';
import type { UnreadBodyLimits } from './unread-body-drain';

const MIB = 1024 * 1024;

interface Outcome {
  /** The status line the client read, if any. */
  readonly status?: string;
  /** Whether the client got to write its whole body. */
  readonly wroteAll: boolean;
}

/**
 * A client that writes its whole chunked body before it reads anything,
 * as many HTTP clients do, then reads what came back.
 */
function writeThenRead(port: number, bodyBytes: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let wroteAll = false;
    let reading = false;
    const finish = () =>
      resolve({
        status: answer.includes('\r\n')
          ? answer.slice(0, answer.indexOf('\r\n'))
          : undefined,
        wroteAll,
      });
    socket.on('error', () => undefined);
    socket.on('close', finish);
    socket.write(
      'POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n',
    );
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const frame = Buffer.concat([
      Buffer.from(`${chunk.length.toString(16)}\r\n`),
      chunk,
      Buffer.from('\r\n'),
    ]);
    let sent = 0;
    const writeMore = () => {
      while (sent < bodyBytes) {
        sent += chunk.length;
        if (!socket.write(frame)) {
          socket.once('drain', writeMore);
          return;
        }
      }
      socket.write('0\r\n\r\n', () => {
        wroteAll = true;
        if (!reading) {
          reading = true;
          socket.on('data', (data: Buffer) => {
            answer += data.toString('latin1');
            if (answer.includes('\r\n')) socket.destroy();
          });
        }
      });
    };
    writeMore();
  });
}

describe('unreadBodyDrainMiddleware', () => {
  let server: Server;
  let port: number;
  let requests: IncomingMessage[];

  /**
   * `reads`: the route reads 64 KiB of the body, stops (as a reader past
   * its limit does) and answers 413; else it answers 413 before reading
   * any (as a check of the declared length does).
   */
  async function listen(
    limits: UnreadBodyLimits,
    routeLimit?: number,
    reads = true,
  ) {
    const drain = unreadBodyDrainMiddleware(limits);
    requests = [];
    server = createServer((req, res) =>
      drain(req, res, () => {
        requests.push(req);
        if (routeLimit !== undefined) noteBodyLimit(req, routeLimit);
        const refuse = () => {
          res.statusCode = 413;
          res.end('too large');
        };
        if (!reads) return refuse();
        req.once('data', () => {
          req.pause();
          refuse();
        });
      }),
    );
    // Node closes a connection idle past its keep-alive timeout (5 s) on
    // its own: longer than any test here, so only the drain closes one.
    server.keepAliveTimeout = 120_000;
    await once(server.listen(0, '127.0.0.1'), 'listening');
    port = (server.address() as AddressInfo).port;
  }

  afterEach(() => server.close().closeAllConnections());

  it('reads the rest of a refused body so that its answer is heard', async () => {
    await listen({ defaultLimitBytes: 64 * MIB, timeoutMs: 60_000 });
    // Far more than the socket buffers hold: without the drain the client
    // stays blocked writing and never reads.
    const outcome = await writeThenRead(port, 16 * MIB);
    expect(outcome).toEqual({
      status: 'HTTP/1.1 413 Payload Too Large',
      wroteAll: true,
    });
  });

  it("closes the connection once more than the route's limit plus 10% has been dropped", async () => {
    await listen({ defaultLimitBytes: 64 * MIB, timeoutMs: 60_000 }, MIB);
    const outcome = await writeThenRead(port, 64 * MIB);
    expect(outcome.wroteAll).toBe(false);
    expect(requests[0]?.socket.destroyed).toBe(true);
  });

  it("holds the route's limit for a body it answered before reading any", async () => {
    // Node itself reads and drops a body nobody started to read, with no
    // bound: the drain must take it first.
    await listen(
      { defaultLimitBytes: 64 * MIB, timeoutMs: 60_000 },
      MIB,
      false,
    );
    const outcome = await writeThenRead(port, 64 * MIB);
    expect(outcome.wroteAll).toBe(false);
    expect(requests[0]?.socket.destroyed).toBe(true);
  });
});
