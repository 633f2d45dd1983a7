/**
 * The zstd frame format (RFC 8878), as far as the decoder must read it
 * itself to stay bomb-safe: libzstd allocates each frame's window as its
 * header declares (up to 128 MiB by default, and its WASM build exports no
 * way to lower that), so every header is read and checked before libzstd
 * sees a byte of its frame; blocks are walked by their headers only to
 * find where the next frame begins.
 */

const ZSTD_MAGIC = 0xfd2fb528;
/**
 * The largest window accepted: 8 MiB, zstd's largest at its normal levels
 * (1..19) and the cap RFC 9659 sets on the `zstd` content coding.
 */
export const MAX_WINDOW_BYTES = 8 * 1024 * 1024;
/** No block holds (or decodes to) more than this (RFC 8878, 3.1.1.2.3). */
export const MAX_BLOCK_BYTES = 128 * 1024;
/** Magic, descriptor, window byte, 4-byte dictionary id, 8-byte content size. */
export const MAX_FRAME_HEADER_BYTES = 18;
export const BLOCK_HEADER_BYTES = 3;
export const CHECKSUM_BYTES = 4;

/** Past the limit; a RangeError, as zlib's own "too large" errors are. */
export class ZstdLimitError extends RangeError {}
export class ZstdDataError extends Error {}

export type FrameHeader =
  | { readonly skippable: true; readonly payloadBytes: number }
  | {
      readonly skippable: false;
      /** What libzstd allocates for the frame: its window, or its content size in one segment. */
      readonly window: number;
      /** 0 when the header does not say. */
      readonly contentSize: number;
      readonly checksum: boolean;
    };

function u32(bytes: Uint8Array, at: number): number {
  return (
    ((bytes[at] as number) |
      ((bytes[at + 1] as number) << 8) |
      ((bytes[at + 2] as number) << 16) |
      ((bytes[at + 3] as number) << 24)) >>>
    0
  );
}

function isSkippable(magic: number): boolean {
  return magic >>> 4 === 0x184d2a5;
}

/**
 * How long the frame header starting `bytes` is, as far as its first bytes
 * tell: 4 until the magic is in, 5 until a zstd frame's descriptor is, then
 * the exact length (8 for a skippable frame). Throws on a wrong magic.
 */
export function frameHeaderLength(bytes: Uint8Array): number {
  if (bytes.length < 4) return 4;
  const magic = u32(bytes, 0);
  if (isSkippable(magic)) return 8;
  if (magic !== ZSTD_MAGIC) throw new ZstdDataError('not zstd data');
  const descriptor = bytes[4];
  if (descriptor === undefined) return 5;
  const singleSegment = (descriptor >> 5) & 1;
  const sizeFlag = descriptor >> 6;
  const dictionaryBytes = [0, 1, 2, 4][descriptor & 3] as number;
  const sizeBytes = sizeFlag === 0 ? singleSegment : 1 << sizeFlag;
  return 5 + (1 - singleSegment) + dictionaryBytes + sizeBytes;
}

/** Reads a whole frame header (`frameHeaderLength(bytes)` bytes). */
export function readFrameHeader(bytes: Uint8Array): FrameHeader {
  if (isSkippable(u32(bytes, 0)))
    return { skippable: true, payloadBytes: u32(bytes, 4) };
  const descriptor = bytes[4] as number;
  if (descriptor & 8) throw new ZstdDataError('reserved frame header bit set');
  const singleSegment = (descriptor >> 5) & 1;
  let window = 0;
  if (!singleSegment) {
    const wd = bytes[5] as number;
    const base = 2 ** (10 + (wd >> 3));
    window = base + (base / 8) * (wd & 7);
  }
  const sizeFlag = descriptor >> 6;
  const sizeBytes = sizeFlag === 0 ? singleSegment : 1 << sizeFlag;
  const sizeAt = bytes.length - sizeBytes;
  let contentSize = 0;
  for (let i = 0; i < sizeBytes; i++)
    contentSize += (bytes[sizeAt + i] as number) * 2 ** (8 * i);
  if (sizeBytes === 2) contentSize += 256;
  return {
    skippable: false,
    window: singleSegment ? contentSize : window,
    contentSize,
    checksum: ((descriptor >> 2) & 1) === 1,
  };
}

/**
 * Refuses a frame declaring more content than `maxBytes`, or a window
 * above 8 MiB (RFC 9659), before it is allocated.
 */
export function checkFrame(frame: FrameHeader, maxBytes: number): void {
  if (frame.skippable) return;
  if (frame.window > MAX_WINDOW_BYTES)
    throw new ZstdLimitError('zstd window larger than 8 MiB');
  if (frame.contentSize > maxBytes)
    throw new ZstdLimitError('zstd frame larger than the limit');
}

export interface BlockHeader {
  readonly last: boolean;
  /** Bytes of the block after its header (an RLE block carries one). */
  readonly bodyBytes: number;
}

/** Reads the 3-byte block header at `bytes[0..2]`. */
export function readBlockHeader(bytes: Uint8Array): BlockHeader {
  const header =
    (bytes[0] as number) |
    ((bytes[1] as number) << 8) |
    ((bytes[2] as number) << 16);
  const type = (header >> 1) & 3;
  const size = header >> 3;
  if (type === 3) throw new ZstdDataError('reserved block type');
  if (size > MAX_BLOCK_BYTES) throw new ZstdDataError('block too large');
  return { last: (header & 1) === 1, bodyBytes: type === 1 ? 1 : size };
}
