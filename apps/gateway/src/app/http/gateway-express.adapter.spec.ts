import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { currentCaller, identifyCaller } from '@quitanda/database';
import type { NextFunction, Request, Response } from 'express';

import { GatewayExpressAdapter } from './gateway-express.adapter';

/**
 * A gateway's Express with one route that answers who its caller is, and a
 * middleware before it that names the caller of requests saying `x-user`
 * (as a context's authentication does, after an await).
 */
async function serve(callerScopes: boolean): Promise<Server> {
  const adapter = new GatewayExpressAdapter(undefined, { callerScopes });
  adapter.use(async (req: Request, _res: Response, next: NextFunction) => {
    await Promise.resolve();
    const user = req.headers['x-user'];
    if (typeof user === 'string') identifyCaller(req, `user:${user}`);
    next();
  });
  adapter.get('/caller', async (_req: Request, res: Response) => {
    await new Promise((resolve) => setImmediate(resolve));
    res.json({ caller: currentCaller() ?? null });
  });
  const server = (
    adapter.getInstance() as { listen(port: number): Server }
  ).listen(0);
  await once(server, 'listening');
  return server;
}

async function callerSeenBy(
  server: Server,
  user?: string,
): Promise<string | null> {
  const { port } = server.address() as AddressInfo;
  const res = await fetch(`http://127.0.0.1:${port}/caller`, {
    headers: user ? { 'x-user': user } : {},
  });
  return ((await res.json()) as { caller: string | null }).caller;
}

describe('GatewayExpressAdapter caller scopes', () => {
  const servers: Server[] = [];

  afterAll(async () => {
    for (const server of servers) {
      server.close();
      server.closeAllConnections();
    }
  });

  it('runs each route handler as its own caller: the one named for its request, else its address', async () => {
    const server = await serve(true);
    servers.push(server);
    const seen = await Promise.all([
      callerSeenBy(server, 'ana'),
      callerSeenBy(server),
      callerSeenBy(server, 'bruno'),
    ]);
    expect(seen).toEqual([
      'user:ana',
      expect.stringMatching(/^address:.*127\.0\.0\.1$/),
      'user:bruno',
    ]);
  });

  it('enters no scope without a replica', async () => {
    const server = await serve(false);
    servers.push(server);
    await expect(callerSeenBy(server, 'ana')).resolves.toBeNull();
  });
});
