import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * zstd bodies written by the zstd CLI (`tools/scripts/make-zstd-fixtures.sh`),
 * each with the size and sha256 of what it decodes to.
 */
const ZSTD_FIXTURES_DIR = join(__dirname, '../../fixtures/zstd');

export interface ZstdFixture {
  readonly compressed: Buffer;
  /** Size of the decoded bytes. */
  readonly bytes: number;
  /** sha256 (hex) of the decoded bytes. */
  readonly sha256: string;
}

export function loadZstdFixture(name: string): ZstdFixture {
  const index = JSON.parse(
    readFileSync(join(ZSTD_FIXTURES_DIR, 'index.json'), 'utf8'),
  ) as Record<string, { bytes: number; sha256: string }>;
  const entry = index[name];
  if (!entry) throw new Error(`no zstd fixture ${name}`);
  return {
    ...entry,
    compressed: readFileSync(join(ZSTD_FIXTURES_DIR, name)),
  };
}

const MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);
const BLOCK_BYTES = 128 * 1024;

function blockHeader(type: 0 | 1, size: number, last: boolean): Buffer {
  const header = (size << 3) | (type << 1) | (last ? 1 : 0);
  return Buffer.from([header & 0xff, (header >> 8) & 0xff, header >> 16]);
}

function frameHeader(windowLog: number, contentSize?: number): Buffer {
  if (contentSize === undefined)
    return Buffer.concat([MAGIC, Buffer.from([0x00, (windowLog - 10) << 3])]);
  const size = Buffer.alloc(8);
  size.writeBigUInt64LE(BigInt(contentSize));
  // An 8-byte content size field, and a window descriptor.
  return Buffer.concat([
    MAGIC,
    Buffer.from([0xc0, (windowLog - 10) << 3]),
    size,
  ]);
}

export interface ZstdFrameOptions {
  /** The window it declares: 2^windowLog bytes (17: 128 KiB, a block). */
  readonly windowLog?: number;
  /** A content size to declare, true or not. */
  readonly contentSize?: number;
}

/**
 * A zstd frame of raw blocks, as an encoder writes data that does not
 * compress (no checksum).
 */
export function zstdRawFrame(
  data: Buffer,
  options: ZstdFrameOptions = {},
): Buffer {
  const parts = [frameHeader(options.windowLog ?? 17, options.contentSize)];
  let at = 0;
  do {
    const block = data.subarray(at, at + BLOCK_BYTES);
    at += block.length;
    parts.push(blockHeader(0, block.length, at >= data.length), block);
  } while (at < data.length);
  return Buffer.concat(parts);
}

/**
 * A zstd frame of `blocks` RLE blocks of 128 KiB of `byte`: 4 bytes of
 * input each, a decompression bomb.
 */
export function zstdRleFrame(
  byte: number,
  blocks: number,
  options: ZstdFrameOptions = {},
): Buffer {
  const parts = [frameHeader(options.windowLog ?? 17, options.contentSize)];
  for (let i = 0; i < blocks; i++)
    parts.push(
      blockHeader(1, BLOCK_BYTES, i === blocks - 1),
      Buffer.from([byte]),
    );
  return Buffer.concat(parts);
}

/**
 * A zstd frame of `blocks` RLE blocks of one byte each (4 bytes of input
 * per byte of output) in a window of 2^windowLog bytes: costly to a
 * decoder whose work follows its window rather than its output.
 */
export function zstdOneByteRleFrame(blocks: number, windowLog: number): Buffer {
  const parts = [frameHeader(windowLog)];
  for (let i = 0; i < blocks; i++)
    parts.push(blockHeader(1, 1, i === blocks - 1), Buffer.from([0x41]));
  return Buffer.concat(parts);
}

/** A skippable frame (magic `0x184D2A5?`) carrying `payload`. */
export function zstdSkippableFrame(payload: Buffer, variant = 0): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32LE(0x184d2a50 + variant, 0);
  header.writeUInt32LE(payload.length, 4);
  return Buffer.concat([header, payload]);
}
