import { Agent, createServer, request } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { ConnectionDrain } from './connection-drain';

interface Reply {
  readonly status: number;
  readonly connection?: string;
}

function get(port: number, agent: Agent): Promise<Reply> {
  return new Promise((resolve, reject) => {
    request({ port, host: '127.0.0.1', agent, path: '/' }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          connection: res.headers.connection,
        }),
      );
    })
      .on('error', reject)
      .end();
  });
}

describe('ConnectionDrain', () => {
  let server: Server;
  let port: number;
  let release: () => void = () => undefined;
  let arrived: () => void = () => undefined;
  const nextRequest = () =>
    new Promise<void>((resolve) => {
      arrived = resolve;
    });

  beforeEach(async () => {
    // Every response waits for `release`, so a request can be held in flight.
    server = createServer((_req, res) => {
      release = () => res.end('ok');
      arrived();
    });
    await new Promise<void>((resolve) =>
      server.listen(0, '127.0.0.1', resolve),
    );
    port = (server.address() as AddressInfo).port;
  });

  afterEach(() => {
    server.closeAllConnections();
    server.close();
  });

  it('answers in-flight requests with Connection: close and resolves once every connection is gone', async () => {
    const drain = new ConnectionDrain(server);
    const busy = new Agent({ keepAlive: true, maxSockets: 1 });
    const idle = new Agent({ keepAlive: true, maxSockets: 1 });
    // One keep-alive connection left idle, one with a request in flight.
    const firstArrived = nextRequest();
    const first = get(port, idle);
    await firstArrived;
    release();
    expect((await first).connection).toBe('keep-alive');
    const inFlight = get(port, busy);
    await new Promise((resolve) =>
      server.once('request', () => setImmediate(resolve)),
    );

    let drained = false;
    const done = drain.drain().then(() => {
      drained = true;
    });
    // The idle connection is closed at once; the busy one waits for its answer.
    await new Promise((resolve) => setImmediate(resolve));
    expect(drained).toBe(false);
    release();
    expect(await inFlight).toEqual({ status: 200, connection: 'close' });
    await done;
    expect(drained).toBe(true);
    busy.destroy();
    idle.destroy();
  });
});
