import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { MarketplaceErrorCode } from '../common/marketplace.errors';
import type { FlexService } from './business-logic.types';
import { FlexClient, MAX_FLEX_RESPONSE_BYTES } from './flex-client';

const SECRET = 'flex-shared-secret-0123456789';

/** A stand-in Flex service answering each path its own way. */
async function serve(
  handle: Parameters<typeof createServer>[1],
): Promise<{ server: Server; url: string }> {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}` };
}

describe('FlexClient', () => {
  let server: Server;
  let service: FlexService;
  let seenSecret: string | undefined;
  const sockets = new Set<unknown>();
  const client = new FlexClient();

  beforeAll(async () => {
    const started = await serve((req, res) => {
      seenSecret = req.headers['x-auth-key'] as string | undefined;
      sockets.add(req.socket);
      if (req.url === '/healthcheck') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ healthy: true }));
      } else if (req.url === '/huge') {
        // Streamed without a length: the bound holds while reading.
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        let sent = 0;
        const more = () => {
          while (sent <= MAX_FLEX_RESPONSE_BYTES) {
            sent += chunk.length;
            if (!res.write(chunk)) return res.once('drain', more);
          }
          return res.end();
        };
        more();
      } else if (req.url === '/declared-huge') {
        res.setHeader('content-length', String(MAX_FLEX_RESPONSE_BYTES + 1));
        res.write('[');
      } else if (req.url === '/html') {
        res.statusCode = 500;
        res.end('<h1>Internal Server Error</h1>');
      } else if (req.url === '/moved') {
        res.statusCode = 302;
        res.setHeader('location', 'http://127.0.0.1:9/elsewhere');
        res.setHeader('content-type', 'application/json');
        res.end('{}');
      } else if (req.url === '/stall') {
        // Never answers: the caller's timeout ends it.
      } else {
        res.setHeader('content-type', 'application/json');
        res.setHeader('x-kinvey-request-continue', 'false');
        res.statusCode = 201;
        res.end(JSON.stringify({ ok: true }));
      }
    });
    server = started.server;
    service = {
      name: 'produce',
      url: started.url,
      // Generous: a loaded machine must not turn answers into timeouts.
      timeoutMs: 10_000,
      sharedSecret: SECRET,
      callbackMasterSecret: 'm',
      callbackAppSecret: 'a',
    };
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const call = (path: string) =>
    client.call(service, { method: 'POST', path, headers: {}, body: {} });

  it('answers the status, the JSON body and whether a hook lets the call go on', async () => {
    await expect(call('/ok')).resolves.toEqual({
      status: 201,
      body: { ok: true },
      continue: false,
    });
  });

  it('stops reading past the response bound, declared or streamed', async () => {
    for (const path of ['/huge', '/declared-huge'])
      await expect(call(path)).rejects.toMatchObject({
        code: MarketplaceErrorCode.BLRuntimeError,
        debug: expect.stringContaining(String(MAX_FLEX_RESPONSE_BYTES)),
      });
  });

  it('keeps one connection to the service for calls one after another', async () => {
    sockets.clear();
    for (let i = 0; i < 5; i++) await call('/ok');
    expect(sockets.size).toBe(1);
  });

  it('follows no redirect: a service that answers one is a BLRuntimeError', async () => {
    await expect(call('/moved')).rejects.toMatchObject({
      code: MarketplaceErrorCode.BLRuntimeError,
      debug: expect.stringContaining('redirect (302)'),
    });
  });

  it("ends a call at the service's timeout with BLTimeoutError", async () => {
    const impatient = { ...service, timeoutMs: 300 };
    await expect(
      client.call(impatient, { method: 'GET', path: '/stall', headers: {} }),
    ).rejects.toMatchObject({
      code: MarketplaceErrorCode.BLTimeoutError,
      debug: expect.stringContaining('300 ms'),
    });
  });

  it('calls an answer without JSON, or no answer, a BLRuntimeError that never names the secret', async () => {
    const unreachable = { ...service, url: 'http://127.0.0.1:9' };
    for (const attempt of [
      () => call('/html'),
      () => client.call(unreachable, { method: 'GET', path: '/', headers: {} }),
    ]) {
      const error: unknown = await attempt().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({
        code: MarketplaceErrorCode.BLRuntimeError,
      });
      expect(JSON.stringify(error)).not.toContain(SECRET);
    }
  });

  it('checks health with the shared secret, and says how long it took', async () => {
    await expect(client.health(service)).resolves.toEqual({
      healthy: true,
      ms: expect.any(Number),
    });
    expect(seenSecret).toBe(SECRET);
    await expect(
      client.health({ ...service, url: 'http://127.0.0.1:9' }),
    ).resolves.toMatchObject({ healthy: false, detail: expect.any(String) });
  });
});
