import { once } from 'node:events';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';

import type { Express, Request, Response } from 'express';

import { GatewayExpressAdapter } from './gateway-express.adapter';

setFlagsFromString('--allow-natives-syntax');
/** V8's own answer: whether two objects have the same hidden class. */
const haveSameShape = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (
  a: object,
  b: object,
) => boolean;

describe('requests and responses born with Express prototypes', () => {
  let server: Server;
  let app: Express;
  const seen: Array<{ req: Request; res: Response }> = [];

  beforeAll(async () => {
    const adapter = new GatewayExpressAdapter();
    app = adapter.getInstance<Express>();
    app.get('/hello', (req: Request, res: Response) => {
      seen.push({ req, res });
      res.locals['greeting'] = 'hello';
      res.json({ greeting: res.locals['greeting'], app: req.app === app });
    });
    adapter.initHttpServer({});
    server = adapter.getHttpServer() as Server;
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  });

  afterAll(() => {
    server.close();
    server.closeAllConnections();
  });

  async function hello(): Promise<unknown> {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/hello?x=1`);
    return res.json();
  }

  it('keeps what Express gives its requests and responses', async () => {
    await expect(hello()).resolves.toEqual({ greeting: 'hello', app: true });
    const { req, res } = seen.at(-1) as { req: Request; res: Response };
    expect(Object.getPrototypeOf(req)).toBe(app.request);
    expect(Object.getPrototypeOf(res)).toBe(app.response);
    expect(req.query).toEqual({ x: '1' });
    expect(req.get('host')).toMatch(/^127\.0\.0\.1:/);
  });

  it('gives every request, and every response, of a route one hidden class', async () => {
    for (let i = 0; i < 3; i++) await hello();
    const [a, b] = seen.slice(-2) as Array<{ req: Request; res: Response }>;
    expect(
      haveSameShape(a?.req as IncomingMessage, b?.req as IncomingMessage),
    ).toBe(true);
    expect(
      haveSameShape(a?.res as ServerResponse, b?.res as ServerResponse),
    ).toBe(true);
  });
});
