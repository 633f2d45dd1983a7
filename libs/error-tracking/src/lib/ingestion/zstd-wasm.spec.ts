import { once } from 'node:events';

import { zstdRleFrame } from '@quitanda/testing';

import { ZstdDecompressStream } from './zstd-transform';
import { zstdWasmMemoryBytes } from './zstd-wasm';

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
});
