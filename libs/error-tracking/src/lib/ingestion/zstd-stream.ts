import { Decompress } from 'fzstd';

import {
  BLOCK_HEADER_BYTES,
  CHECKSUM_BYTES,
  MAX_FRAME_HEADER_BYTES,
  ZstdDataError,
  ZstdLimitError,
  checkFrame,
  frameHeaderLength,
  readBlockHeader,
  readFrameHeader,
} from './zstd';

type Step = 'frame' | 'skip' | 'block' | 'body' | 'checksum';

const NOTHING = new Uint8Array(0);

/**
 * zstd decoded as its bytes arrive, with fzstd (pure JavaScript; Node 20's
 * zlib has no zstd), bomb-safe: each frame's header is read and checked
 * (`checkFrame`) before fzstd sees a byte of that frame, `onFrame` is told
 * the window fzstd is about to allocate, and fzstd is fed a block at a
 * time, so one `next()` decodes about one block (128 KiB) and the caller
 * can stop between any two. Output past `maxBytes` throws.
 *
 * fzstd's own stream takes frames split anywhere: it keeps a block's
 * pieces until the block is whole, and a frame's first bytes until it has
 * 18 (the longest header; a tiny frame's 18 bytes may hold three RLE
 * blocks). But it allocates a frame's window as soon as it reads the
 * header, hence the headers read here first. Skippable frames never reach
 * it. Holds one chunk, one frame header, what fzstd keeps of a block, and
 * fzstd's window.
 */
export class ZstdStreamDecoder {
  private readonly fzstd = new Decompress((data) => {
    if (data.length > 0) this.decoded.push(data);
  });
  private decoded: Uint8Array[] = [];
  private total = 0;
  private step: Step = 'frame';
  /** The frame header read so far. */
  private header = new Uint8Array(MAX_FRAME_HEADER_BYTES);
  private headerRead = 0;
  private readonly blockHeader = new Uint8Array(BLOCK_HEADER_BYTES);
  private blockHeaderRead = 0;
  /** Bytes of the current block body, checksum or skipped frame to come. */
  private left = 0;
  private lastBlock = false;
  private checksum = false;
  private chunk: Uint8Array = NOTHING;
  private at = 0;
  /** Where the bytes of `chunk` not yet given to fzstd begin. */
  private from = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly onFrame: (window: number) => void = () => undefined,
  ) {}

  /** The next chunk of input; call once `next()` has run it out. */
  feed(chunk: Uint8Array): void {
    this.chunk = chunk;
    this.at = 0;
    this.from = 0;
  }

  /**
   * Reads on through the chunk up to the end of the next block (or of the
   * chunk) and returns what that decoded (often nothing); undefined once
   * the chunk is used up.
   */
  next(): Uint8Array[] | undefined {
    if (this.at === this.chunk.length) {
      if (this.from === this.at) return undefined;
      // The start of a block: fzstd keeps it until the rest comes.
      return this.toFzstd(this.take(), false);
    }
    switch (this.step) {
      case 'frame':
        return this.readFrameHeader();
      case 'block':
        return this.readBlockHeader();
      default:
        return this.readPart();
    }
  }

  /** After the last chunk: what fzstd still held; throws if a frame is cut short. */
  end(): Uint8Array[] {
    if (this.step !== 'frame' || this.headerRead > 0)
      throw new ZstdDataError('truncated zstd frame');
    return this.toFzstd(NOTHING, true);
  }

  private readFrameHeader(): Uint8Array[] {
    const wanted = frameHeaderLength(this.header.subarray(0, this.headerRead));
    this.headerRead = this.gather(this.header, this.headerRead, wanted);
    // Given to fzstd from `header`, once checked.
    this.from = this.at;
    const bytes = this.header.subarray(0, this.headerRead);
    if (this.headerRead < wanted || frameHeaderLength(bytes) > wanted)
      return [];
    const frame = readFrameHeader(bytes);
    // fzstd may keep what it is given: the next header gets a buffer of its own.
    this.header = new Uint8Array(MAX_FRAME_HEADER_BYTES);
    this.headerRead = 0;
    if (frame.skippable) {
      this.step = 'skip';
      this.left = frame.payloadBytes;
      return this.left === 0 ? this.endPart() : [];
    }
    checkFrame(frame, this.maxBytes);
    this.onFrame(frame.window);
    this.checksum = frame.checksum;
    this.step = 'block';
    return this.toFzstd(bytes, false);
  }

  private readBlockHeader(): Uint8Array[] {
    // Given to fzstd with the block's body, from the chunk.
    this.blockHeaderRead = this.gather(
      this.blockHeader,
      this.blockHeaderRead,
      BLOCK_HEADER_BYTES,
    );
    if (this.blockHeaderRead < BLOCK_HEADER_BYTES) return [];
    this.blockHeaderRead = 0;
    const block = readBlockHeader(this.blockHeader);
    this.lastBlock = block.last;
    this.left = block.bodyBytes;
    this.step = 'body';
    return this.left === 0 ? this.endPart() : [];
  }

  /** On through a block's body, a checksum or a skippable frame. */
  private readPart(): Uint8Array[] {
    const taken = Math.min(this.left, this.chunk.length - this.at);
    this.at += taken;
    this.left -= taken;
    if (this.step === 'skip') this.from = this.at;
    return this.left === 0 ? this.endPart() : [];
  }

  /** The current block, checksum or skippable frame is complete. */
  private endPart(): Uint8Array[] {
    const step = this.step;
    this.step = 'frame';
    if (step === 'skip') return [];
    if (step === 'body' && !this.lastBlock) this.step = 'block';
    else if (step === 'body' && this.checksum) {
      this.step = 'checksum';
      this.left = CHECKSUM_BYTES;
    }
    return this.toFzstd(this.take(), false);
  }

  /**
   * Copies bytes of the chunk into `into`, which holds `held`, until it
   * holds `wanted` or the chunk is used up; how many it then holds.
   */
  private gather(into: Uint8Array, held: number, wanted: number): number {
    const taken = Math.min(wanted - held, this.chunk.length - this.at);
    into.set(this.chunk.subarray(this.at, this.at + taken), held);
    this.at += taken;
    return held + taken;
  }

  /** The bytes of the chunk read and not yet given to fzstd. */
  private take(): Uint8Array {
    const piece = this.chunk.subarray(this.from, this.at);
    this.from = this.at;
    return piece;
  }

  private toFzstd(bytes: Uint8Array, final: boolean): Uint8Array[] {
    try {
      this.fzstd.push(bytes, final);
    } catch (error) {
      this.decoded = [];
      throw new ZstdDataError(
        error instanceof Error ? error.message : 'invalid zstd data',
      );
    }
    const decoded = this.decoded;
    this.decoded = [];
    for (const piece of decoded) this.total += piece.length;
    if (this.total > this.maxBytes)
      throw new ZstdLimitError('decompressed body larger than the limit');
    return decoded;
  }
}

/** Decodes `data` whole; throws `ZstdLimitError` past `maxBytes` of output. */
export function zstdDecompress(data: Uint8Array, maxBytes: number): Buffer {
  const decoder = new ZstdStreamDecoder(maxBytes);
  const pieces: Uint8Array[] = [];
  decoder.feed(data);
  for (let out = decoder.next(); out; out = decoder.next()) pieces.push(...out);
  pieces.push(...decoder.end());
  return Buffer.concat(pieces);
}
