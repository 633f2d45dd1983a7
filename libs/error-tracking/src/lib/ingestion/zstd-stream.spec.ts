import { createHash } from 'node:crypto';

import {
  loadZstdFixture,
  zstdOneByteRleFrame,
  zstdRawFrame,
  zstdRleFrame,
  zstdSkippableFrame,
} from '@quitanda/testing';

import { ZstdDataError, ZstdLimitError } from './zstd';
import { ZstdStreamDecoder, zstdDecompress } from './zstd-stream';

const MIB = 1024 * 1024;

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Decodes `chunks` in order; `windows` gets what each frame allocates. */
function decode(
  chunks: readonly Uint8Array[],
  maxBytes = 100 * MIB,
  windows: number[] = [],
): Buffer {
  const decoder = new ZstdStreamDecoder(maxBytes, (w) => windows.push(w));
  const out: Uint8Array[] = [];
  for (const chunk of chunks) {
    decoder.feed(chunk);
    for (let o = decoder.next(); o; o = decoder.next()) out.push(...o);
  }
  out.push(...decoder.end());
  return Buffer.concat(out);
}

function inPiecesOf(bytes: Buffer, size: number): Buffer[] {
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size)
    pieces.push(bytes.subarray(at, at + size));
  return pieces;
}

const text1k = loadZstdFixture('text-1k.zst');

describe('ZstdStreamDecoder', () => {
  it.each([
    'empty.zst',
    'text-1k.zst',
    'mixed-300k.zst',
    'mixed-300k-stream.zst',
  ])('decodes what the zstd CLI wrote: %s', (name) => {
    const fixture = loadZstdFixture(name);
    const decoded = decode([fixture.compressed]);
    expect(decoded.length).toBe(fixture.bytes);
    expect(sha256(decoded)).toBe(fixture.sha256);
    expect(zstdDecompress(fixture.compressed, 100 * MIB).equals(decoded)).toBe(
      true,
    );
  });

  it('decodes frames split anywhere: in a magic, a frame or block header, a block, a checksum, between frames', () => {
    const text = decode([text1k.compressed]);
    const tail = Buffer.from('raw tail');
    const body = Buffer.concat([
      text1k.compressed,
      zstdSkippableFrame(Buffer.from('skip me')),
      loadZstdFixture('empty.zst').compressed,
      zstdRawFrame(tail),
      zstdSkippableFrame(Buffer.alloc(0), 0xf),
      text1k.compressed,
    ]);
    const expected = Buffer.concat([text, tail, text]);
    expect(sha256(text)).toBe(text1k.sha256);
    expect(decode([body]).equals(expected)).toBe(true);
    for (let at = 0; at <= body.length; at++) {
      const halves = [body.subarray(0, at), body.subarray(at)];
      expect(decode(halves).equals(expected)).toBe(true);
    }
    expect(decode(inPiecesOf(body, 1)).equals(expected)).toBe(true);
  });

  it.each(['mixed-300k.zst', 'mixed-300k-stream.zst'])(
    "decodes the CLI's multi-block frames byte by byte: %s",
    (name) => {
      const fixture = loadZstdFixture(name);
      expect(sha256(decode(inPiecesOf(fixture.compressed, 1)))).toBe(
        fixture.sha256,
      );
    },
  );

  it.each([
    ['a 2 GiB window', zstdRawFrame(Buffer.from('x'), { windowLog: 31 })],
    [
      'a 16 MiB window (zstd --long=24)',
      loadZstdFixture('text-1k-long.zst').compressed,
    ],
    [
      '2 MiB of content',
      zstdRawFrame(Buffer.from('x'), { contentSize: 2 * MIB }),
    ],
  ])(
    'refuses a frame declaring %s over a 1 MiB limit before allocating or decoding it',
    (_name, frame) => {
      const windows: number[] = [];
      const decoder = new ZstdStreamDecoder(MIB, (w) => windows.push(w));
      const body = Buffer.concat([text1k.compressed, frame]);
      decoder.feed(body);
      const out: Uint8Array[] = [];
      expect(() => {
        for (let o = decoder.next(); o; o = decoder.next()) out.push(...o);
      }).toThrow(ZstdLimitError);
      // The first frame decoded, the second allocated nothing.
      expect(sha256(Buffer.concat(out))).toBe(text1k.sha256);
      expect(windows).toEqual([1000]);
    },
  );

  it('takes windows up to 8 MiB and refuses larger ones whatever the limit (RFC 9659)', () => {
    const stream = loadZstdFixture('mixed-300k-stream.zst');
    const windows: number[] = [];
    expect(sha256(decode([stream.compressed], MIB, windows))).toBe(
      stream.sha256,
    );
    expect(windows).toEqual([8 * MIB]);
    for (const frame of [
      loadZstdFixture('text-1k-long.zst').compressed,
      // The 6-byte header of the attack: a 32 MiB window.
      zstdRleFrame(0, 1, { windowLog: 25 }),
    ])
      expect(() => decode([frame], 100 * MIB, windows)).toThrow(
        /window larger than 8 MiB/,
      );
    expect(windows).toEqual([8 * MIB]);
  });

  it('decodes a frame of 16,000 one-byte RLE blocks in an 8 MiB window to its 16,000 bytes', () => {
    // The 64 KB body: fzstd copied its whole window once per block.
    const blocks = 16_000;
    const body = zstdOneByteRleFrame(blocks, 23);
    expect(body.length).toBe(64_006);
    expect(decode([body]).equals(Buffer.alloc(blocks, 0x41))).toBe(true);
  });

  it('stops as soon as the output passes the limit', () => {
    // 64 blocks of 128 KiB (8 MiB) in 269 bytes.
    const bomb = zstdRleFrame(0, 64);
    const decoder = new ZstdStreamDecoder(MIB);
    decoder.feed(bomb);
    let decoded = 0;
    expect(() => {
      for (let o = decoder.next(); o; o = decoder.next())
        for (const piece of o) decoded += piece.length;
    }).toThrow(ZstdLimitError);
    expect(decoded).toBe(MIB);
    expect(decode([zstdRleFrame(7, 8)], MIB).equals(Buffer.alloc(MIB, 7))).toBe(
      true,
    );
  });

  it('refuses truncated and corrupt input', () => {
    const mixed = loadZstdFixture('mixed-300k.zst').compressed;
    // In the magic, the frame header, a block, the checksum.
    for (const at of [2, 7, 1000, mixed.length - 2])
      expect(() => decode([mixed.subarray(0, at)])).toThrow(
        /truncated zstd frame/,
      );
    const reservedBlockType = Buffer.from(text1k.compressed);
    reservedBlockType[7] = (reservedBlockType[7] as number) | 0b110;
    const blockTooLarge = Buffer.from(text1k.compressed);
    blockTooLarge.fill(0xff, 7, 10);
    const garbage = Buffer.from(text1k.compressed);
    garbage.fill(0, 15, 65);
    // fzstd let this through: libzstd checks the frame's checksum.
    const wrongChecksum = Buffer.from(text1k.compressed);
    wrongChecksum[wrongChecksum.length - 1] ^= 0xff;
    for (const corrupt of [
      wrongChecksum,
      Buffer.from('not zstd at all'),
      reservedBlockType,
      blockTooLarge,
      garbage,
      Buffer.concat([text1k.compressed, Buffer.from('trailing')]),
    ])
      expect(() => decode([corrupt])).toThrow(ZstdDataError);
  });
});
