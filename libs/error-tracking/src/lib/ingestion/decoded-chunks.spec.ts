import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';

import { decodedChunks } from './decoded-chunks';

const MIB = 1024 * 1024;

/** A request as far as `decodedChunks` reads it: headers and body bytes. */
function requestOf(body: Buffer, headers: Record<string, string>) {
  return Object.assign(Readable.from([body]), {
    headers,
  }) as unknown as IncomingMessage;
}

describe('decodedChunks', () => {
  it('holds a small body and what it decodes to: 1 KB of gzip decoding to 1 MiB holds both', async () => {
    const body = gzipSync(Buffer.alloc(MIB - 1024, 'x'));
    expect(body.length).toBeLessThan(2 * 1024);
    const held: number[] = [];
    const decoded: Buffer[] = [];
    for await (const chunk of decodedChunks(
      requestOf(body, {
        'content-length': String(body.length),
        'content-encoding': 'gzip',
      }),
      'gzip',
      {
        hold: (bytes) => held.push(bytes),
        maxBodyBytes: MIB,
        maxDecodedBytes: 100 * MIB,
      },
    ))
      decoded.push(chunk);
    expect(Buffer.concat(decoded).length).toBe(MIB - 1024);
    expect(held).toEqual([body.length, MIB - 1024]);
  });
});
