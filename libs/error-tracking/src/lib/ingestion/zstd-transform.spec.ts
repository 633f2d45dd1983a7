import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import { loadZstdFixture, seededRandom, zstdRleFrame } from '@quitanda/testing';

import { ZstdDataError, ZstdLimitError } from './zstd';
import { ZstdDecompressStream } from './zstd-transform';

const MIB = 1024 * 1024;
const BLOCK = 128 * 1024;

/** `bytes` in pieces of 1 to `most` bytes, the sizes drawn from `seed`. */
function randomPieces(bytes: Buffer, most: number, seed: number): Buffer[] {
  const random = seededRandom(seed);
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length;) {
    const size = 1 + Math.floor(random() * most);
    pieces.push(bytes.subarray(at, at + size));
    at += size;
  }
  return pieces;
}

/** What the stream puts out for `chunks`: its size and sha256. */
async function drain(
  chunks: Buffer[],
  stream: ZstdDecompressStream,
): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  await pipeline(Readable.from(chunks), stream, async (decoded) => {
    for await (const piece of decoded as AsyncIterable<Buffer>) {
      bytes += piece.length;
      hash.update(piece);
    }
  });
  return { bytes, sha256: hash.digest('hex') };
}

describe('ZstdDecompressStream', () => {
  it.each([
    ['mixed-300k.zst', 64, 1],
    ['mixed-300k-stream.zst', 4096, 2],
    ['attachment-40m.zst', 512, 3],
  ])(
    'decodes %s sent in pieces of up to %i bytes',
    async (name, most, seed) => {
      const fixture = loadZstdFixture(name);
      await expect(
        drain(
          randomPieces(fixture.compressed, most, seed),
          new ZstdDecompressStream(100 * MIB),
        ),
      ).resolves.toEqual({ bytes: fixture.bytes, sha256: fixture.sha256 });
    },
  );

  it('decodes only as fast as it is read: a small chunk decoding to 8 MiB is not decoded ahead', async () => {
    const stream = new ZstdDecompressStream(100 * MIB);
    stream.write(zstdRleFrame(1, 64));
    // Not 8 MiB: a piece or three of 128 KiB, the most one libzstd call
    // puts out.
    expect(stream.readableLength).toBeGreaterThan(0);
    expect(stream.readableLength).toBeLessThanOrEqual(3 * BLOCK);
    stream.end();
    let bytes = 0;
    let most = 0;
    for await (const piece of stream as AsyncIterable<Buffer>) {
      bytes += piece.length;
      most = Math.max(most, stream.readableLength);
    }
    expect(bytes).toBe(8 * MIB);
    expect(most).toBeLessThanOrEqual(3 * BLOCK);
  });

  it('holds the window as it fills (a frame header alone holds nothing), up to the largest window, and stops where hold throws', async () => {
    const held: number[] = [];
    const open = new ZstdDecompressStream(100 * MIB, (bytes) =>
      held.push(bytes),
    );
    // The 6-byte header of an 8 MiB window, the connection left open.
    open.write(Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x68]));
    await new Promise(setImmediate);
    expect(held).toEqual([]);
    open.destroy();

    const text = loadZstdFixture('text-1k.zst').compressed;
    const streamed = loadZstdFixture('mixed-300k-stream.zst');
    held.length = 0;
    await drain(
      [text, streamed.compressed, text, streamed.compressed],
      new ZstdDecompressStream(100 * MIB, (bytes) => held.push(bytes)),
    );
    const sum = held.reduce((a, b) => a + b, 0);
    // What was put out (1000 + 300 KiB + 1000 + 300 KiB), under 8 MiB.
    expect(sum).toBe(2 * 1000 + 2 * streamed.bytes);

    const refused = new Error('budget spent');
    const stream = new ZstdDecompressStream(100 * MIB, (bytes) => {
      if (bytes > 64 * 1024) throw refused;
    });
    await expect(drain([text, streamed.compressed], stream)).rejects.toBe(
      refused,
    );
  });

  it('errors past the limit, on a frame too large, and on truncated or corrupt input', async () => {
    await expect(
      drain([zstdRleFrame(0, 64)], new ZstdDecompressStream(MIB)),
    ).rejects.toBeInstanceOf(ZstdLimitError);
    const long = loadZstdFixture('text-1k-long.zst').compressed;
    await expect(
      drain([long], new ZstdDecompressStream(MIB)),
    ).rejects.toBeInstanceOf(ZstdLimitError);
    const text = loadZstdFixture('text-1k.zst').compressed;
    await expect(
      drain([text.subarray(0, 100)], new ZstdDecompressStream(MIB)),
    ).rejects.toBeInstanceOf(ZstdDataError);
    await expect(
      drain([Buffer.from('not zstd')], new ZstdDecompressStream(MIB)),
    ).rejects.toBeInstanceOf(ZstdDataError);
  });
});
