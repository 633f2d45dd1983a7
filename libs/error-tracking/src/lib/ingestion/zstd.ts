import { Decompress } from 'fzstd';

/**
 * Bomb-safe zstd decoding with fzstd (pure JavaScript, no install script).
 *
 * fzstd allocates each frame's window as its header declares, so before
 * decoding, every frame header is read (frames are self-delimiting: blocks
 * carry their sizes) and a declared size above the limit, or a window above
 * both the limit and zstd's ordinary 8 MiB, is refused. Decoding then stops
 * as soon as the output passes the limit.
 */

const ZSTD_MAGIC = 0xfd2fb528;
/** The largest window zstd uses at its normal levels (1..19): 8 MiB. */
const MAX_ORDINARY_WINDOW = 8 * 1024 * 1024;

export class ZstdLimitError extends Error {}
export class ZstdDataError extends Error {}

function frameWindowAndEnd(
  data: Uint8Array,
  start: number,
): {
  window: number;
  contentSize: number;
  end: number;
} {
  const view = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (start + 4 > view.length) throw new ZstdDataError('truncated frame');
  const magic = view.readUInt32LE(start);
  if ((magic & 0xfffffff0) === 0x184d2a50) {
    // Skippable frame: magic, 4-byte size, payload.
    if (start + 8 > view.length) throw new ZstdDataError('truncated frame');
    return {
      window: 0,
      contentSize: 0,
      end: start + 8 + view.readUInt32LE(start + 4),
    };
  }
  if (magic !== ZSTD_MAGIC) throw new ZstdDataError('not zstd data');
  let position = start + 4;
  const descriptor = view[position++];
  if (descriptor === undefined) throw new ZstdDataError('truncated frame');
  const singleSegment = (descriptor >> 5) & 1;
  const checksum = (descriptor >> 2) & 1;
  const dictionaryBytes = [0, 1, 2, 4][descriptor & 3] as number;
  const sizeFlag = descriptor >> 6;
  let window = 0;
  if (!singleSegment) {
    const wd = view[position++];
    if (wd === undefined) throw new ZstdDataError('truncated frame');
    const base = 2 ** (10 + (wd >> 3));
    window = base + (base / 8) * (wd & 7);
  }
  position += dictionaryBytes;
  const sizeBytes = sizeFlag === 0 ? singleSegment : 1 << sizeFlag;
  let contentSize = 0;
  for (let i = 0; i < sizeBytes; i++)
    contentSize += (view[position + i] ?? 0) * 2 ** (8 * i);
  if (sizeBytes === 2) contentSize += 256;
  position += sizeBytes;
  if (singleSegment) window = contentSize;
  // Blocks: 3-byte header (last flag, type, size), then the block's bytes.
  for (;;) {
    if (position + 3 > view.length) throw new ZstdDataError('truncated frame');
    const blockHeader =
      (view[position] as number) |
      ((view[position + 1] as number) << 8) |
      ((view[position + 2] as number) << 16);
    position += 3;
    const last = blockHeader & 1;
    const type = (blockHeader >> 1) & 3;
    const size = blockHeader >> 3;
    if (type === 3) throw new ZstdDataError('reserved block type');
    position += type === 1 ? 1 : size;
    if (last) break;
  }
  return { window, contentSize, end: position + checksum * 4 };
}

/** Decodes `data`; throws `ZstdLimitError` past `maxBytes` of output. */
export function zstdDecompress(data: Uint8Array, maxBytes: number): Buffer {
  for (let start = 0; start < data.length;) {
    const frame = frameWindowAndEnd(data, start);
    if (
      frame.window > Math.max(maxBytes, MAX_ORDINARY_WINDOW) ||
      frame.contentSize > maxBytes
    )
      throw new ZstdLimitError('zstd frame larger than the limit');
    start = frame.end;
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const decoder = new Decompress((chunk) => {
    total += chunk.length;
    if (total > maxBytes)
      throw new ZstdLimitError('decompressed body larger than the limit');
    chunks.push(chunk);
  });
  try {
    decoder.push(data, true);
  } catch (error) {
    if (error instanceof ZstdLimitError) throw error;
    throw new ZstdDataError(
      error instanceof Error ? error.message : 'invalid zstd data',
    );
  }
  return Buffer.concat(chunks, total);
}
