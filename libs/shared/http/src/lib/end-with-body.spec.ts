import { request } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { endWithBody } from './end-with-body';

/** Serves `body` through endWithBody and returns what a client receives. */
async function fetchServed(body: string | Buffer) {
  const server = createServer((_req, res) => endWithBody(res, body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise<{
      length?: string;
      chunked?: string;
      bytes: Buffer;
    }>((resolve, reject) => {
      request({ port, host: '127.0.0.1' }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            length: res.headers['content-length'],
            chunked: res.headers['transfer-encoding'],
            bytes: Buffer.concat(chunks),
          }),
        );
      })
        .on('error', reject)
        .end();
    });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('endWithBody', () => {
  it('declares a text body by its UTF-8 bytes, not its characters', async () => {
    const served = await fetchServed('{"name":"maçã"}');
    expect(served.length).toBe('17');
    expect(served.chunked).toBeUndefined();
    expect(served.bytes.toString('utf8')).toBe('{"name":"maçã"}');
  });

  it('declares a binary body by its length', async () => {
    const served = await fetchServed(Buffer.from([0, 1, 2, 255]));
    expect(served.length).toBe('4');
    expect([...served.bytes]).toEqual([0, 1, 2, 255]);
  });

  it('declares an empty body as zero bytes', async () => {
    const served = await fetchServed('');
    expect(served.length).toBe('0');
    expect(served.bytes).toHaveLength(0);
  });
});
