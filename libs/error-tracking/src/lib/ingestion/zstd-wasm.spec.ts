import { once } from 'node:events';

import { TransportErrorKind } from '@quitanda/kernel';
import { loadZstdFixture, zstdRleFrame } from '@quitanda/testing';

import { decodeBody } from './decode-body';
import { ZstdStreamDecoder } from './zstd-stream';
import { ZstdDecompressStream } from './zstd-transform';
import { ZstdWasmMemoryError, zstdWasmMemoryBytes } from './zstd-wasm';

const MIB = 1024 * 1024;

/** A stream destroyed after its first piece of output, as a reader that stops. */
async function stopAfterFirstPiece(body: Buffer): Promise<number> {
  const stream = new ZstdDecompressStream(100 * MIB);
  stream.write(body);
  const [piece] = (await once(stream, 'data')) as [Buffer];
  stream.destroy();
  await once(stream, 'close');
  return piece.length;
}

describe('the zstd decoder (libzstd in WASM)', () => {
  it('frees each context: 32 streams of 8 MiB windows, each stopped after its first piece, leave the memory no larger than two windows more', async () => {
    // An 8 MiB window, 64 MiB of RLE blocks.
    const bomb = zstdRleFrame(1, 512, { windowLog: 23 });
    await expect(stopAfterFirstPiece(bomb)).resolves.toBe(128 * 1024);
    const before = zstdWasmMemoryBytes();
    for (let i = 0; i < 32; i++) await stopAfterFirstPiece(bomb);
    expect(zstdWasmMemoryBytes()).toBeLessThanOrEqual(before + 2 * 8 * MIB);
  });

  it("answers 429 with Retry-After, not 413, to an 8 MiB window while other streams' windows fill the decoder's 2 GiB, and decodes it once they end", async () => {
    // Ten bytes each: an 8 MiB window's header and a one-byte block.
    const opened: ZstdStreamDecoder[] = [];
    const streamed = loadZstdFixture('mixed-300k-stream.zst');
    try {
      for (;;) {
        const decoder = new ZstdStreamDecoder(100 * MIB);
        opened.push(decoder);
        decoder.feed(zstdRleFrame(1, 2, { windowLog: 23 }).subarray(0, 10));
        for (let out = decoder.next(); out; out = decoder.next());
      }
    } catch (error) {
      expect(error).toBeInstanceOf(ZstdWasmMemoryError);
    }
    expect(opened.length).toBeGreaterThan(200);
    // Whole (a small body) and as a stream (a larger one).
    for (const body of [
      streamed.compressed,
      Buffer.concat([streamed.compressed, Buffer.alloc(64 * 1024)]),
    ])
      await expect(decodeBody(body, 'zstd', 100 * MIB)).rejects.toMatchObject({
        kind: TransportErrorKind.TooManyRequests,
        retryAfterSeconds: 1,
      });
    for (const decoder of opened.splice(0)) decoder.close();
    await expect(
      decodeBody(streamed.compressed, 'zstd', 100 * MIB),
    ).resolves.toHaveLength(streamed.bytes);
  });
});
