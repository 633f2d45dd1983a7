import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';

import { smtpTransport } from './smtp-transport';

describe('smtpTransport', () => {
  let server: Server;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    // Accepts connections and never greets: a stalled mail server.
    server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) =>
      server.listen(0, '127.0.0.1', resolve),
    );
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fails a send to a server that never answers within its timeout', async () => {
    const { port } = server.address() as AddressInfo;
    const transport = smtpTransport(`smtp://127.0.0.1:${port}`, 300);
    const started = Date.now();
    try {
      await expect(
        transport.sendMail({
          from: 'a@example.com',
          to: 'b@example.com',
          text: 'hi',
        }),
      ).rejects.toMatchObject({ code: 'ETIMEDOUT' });
    } finally {
      transport.close();
    }
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
