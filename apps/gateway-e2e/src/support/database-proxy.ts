import { connect, createServer } from 'node:net';
import type { Server, Socket } from 'node:net';

/**
 * A TCP proxy in front of a test database, so a test can take the
 * database away from a gateway in process: `down()` closes the port and
 * every connection (refused, as a stopped server), `stall()` keeps them
 * open but passes nothing on (a server frozen by SIGSTOP), `up()` serves
 * again.
 */
export interface DatabaseProxy {
  /** `databaseUrl` pointed at the proxy. */
  readonly url: string;
  down(): Promise<void>;
  stall(): void;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startDatabaseProxy(
  databaseUrl: string,
): Promise<DatabaseProxy> {
  const parsed = new URL(databaseUrl);
  const target = {
    host: parsed.hostname,
    port: Number(parsed.port || 5432),
  };
  const pairs = new Set<[Socket, Socket]>();
  let server: Server | undefined;
  let port = 0;
  let stalled = false;

  const forward = ([client, upstream]: [Socket, Socket]) => {
    client.pipe(upstream).pipe(client);
  };
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(target.port, target.host);
        const pair: [Socket, Socket] = [client, upstream];
        pairs.add(pair);
        if (!stalled) forward(pair);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          pairs.delete(pair);
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server?.address() as { port: number }).port;
        resolve();
      });
    });
  const down = async () => {
    const closed = new Promise<void>((resolve) =>
      server ? server.close(() => resolve()) : resolve(),
    );
    for (const [client, upstream] of pairs) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
    await closed;
    server = undefined;
  };

  await listen();
  parsed.hostname = '127.0.0.1';
  parsed.port = String(port);
  return {
    url: parsed.toString(),
    down,
    stall() {
      stalled = true;
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
      }
    },
    async up() {
      if (stalled) {
        stalled = false;
        for (const pair of pairs) forward(pair);
      }
      if (!server) await listen();
    },
    async close() {
      stalled = false;
      await down();
    },
  };
}
