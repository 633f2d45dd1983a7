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
import { ZstdWasmDataError, ZstdWasmDecoder } from './zstd-wasm';

type Step = 'frame' | 'skip' | 'block' | 'body' | 'checksum';

const NOTHING = new Uint8Array(0);

/**
 * zstd decoded as its bytes arrive, with libzstd (`ZstdWasmDecoder`; Node
 * 20's zlib has no zstd), bomb-safe: each frame's header is read and
 * checked (`checkFrame`: 8 MiB windows at most) before libzstd sees a byte
 * of that frame, and `onFrame` is told the window it is about to allocate.
 * Each `next()` is one bounded piece of work: one libzstd call (at most
 * 128 KiB in and 128 KiB out), or one header walked, so the caller can
 * stop between any two. Output past `maxBytes` throws. Holds one chunk,
 * one frame header and libzstd's context (its window and two 128 KiB
 * buffers) until `end()`, an error or `close()`; `ZstdWasmMemoryError`
 * when the windows of other streams leave no room for its own.
 */
export class ZstdStreamDecoder {
  private readonly zstd = new ZstdWasmDecoder();
  /** Checked bytes for libzstd, in order. */
  private readonly pending: Uint8Array[] = [];
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
  /** Where the bytes of `chunk` not yet queued for libzstd begin. */
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
   * One piece of work: what it decoded (often nothing); undefined once the
   * chunk is used up and decoded.
   */
  next(): Uint8Array[] | undefined {
    try {
      if (this.zstd.busy || this.pending.length > 0) return this.decode();
      if (this.at === this.chunk.length) {
        if (this.from === this.at) return undefined;
        this.pending.push(this.take());
        return [];
      }
      this.walk();
      return [];
    } catch (error) {
      this.close();
      throw error;
    }
  }

  /** After the last chunk (run out by `next()`): throws if a frame is cut short. */
  end(): Uint8Array[] {
    const complete =
      this.step === 'frame' &&
      this.headerRead === 0 &&
      this.pending.length === 0 &&
      this.zstd.frameComplete;
    this.close();
    if (!complete) throw new ZstdDataError('truncated zstd frame');
    return [];
  }

  /** Frees libzstd's context; the decoder cannot be used after. */
  close(): void {
    this.zstd.close();
  }

  private walk(): void {
    switch (this.step) {
      case 'frame':
        return this.readFrameHeader();
      case 'block':
        return this.readBlockHeader();
      default:
        return this.readPart();
    }
  }

  private decode(): Uint8Array[] {
    if (!this.zstd.busy) this.zstd.feedInput(this.nextInput());
    let out: Uint8Array;
    try {
      out = this.zstd.step();
    } catch (error) {
      if (error instanceof ZstdWasmDataError)
        throw new ZstdDataError(error.message);
      throw error;
    }
    this.total += out.length;
    if (this.total > this.maxBytes)
      throw new ZstdLimitError('decompressed body larger than the limit');
    return out.length > 0 ? [out] : [];
  }

  /** The next queued bytes, at most what libzstd takes at once. */
  private nextInput(): Uint8Array {
    const piece = this.pending.shift() as Uint8Array;
    const capacity = this.zstd.inputCapacity;
    if (piece.length <= capacity) return piece;
    this.pending.unshift(piece.subarray(capacity));
    return piece.subarray(0, capacity);
  }

  private readFrameHeader(): void {
    // The blocks before this frame go to libzstd before its header does.
    if (this.headerRead === 0 && this.from < this.at)
      this.pending.push(this.take());
    const wanted = frameHeaderLength(this.header.subarray(0, this.headerRead));
    this.headerRead = this.gather(this.header, this.headerRead, wanted);
    // Queued from `header`, once checked.
    this.from = this.at;
    const bytes = this.header.subarray(0, this.headerRead);
    if (this.headerRead < wanted || frameHeaderLength(bytes) > wanted) return;
    const frame = readFrameHeader(bytes);
    // Queued as it is: the next header gets a buffer of its own.
    this.header = new Uint8Array(MAX_FRAME_HEADER_BYTES);
    this.headerRead = 0;
    if (frame.skippable) {
      this.step = 'skip';
      this.left = frame.payloadBytes;
      if (this.left === 0) this.endPart();
      return;
    }
    checkFrame(frame, this.maxBytes);
    this.onFrame(frame.window);
    this.checksum = frame.checksum;
    this.step = 'block';
    this.pending.push(bytes);
  }

  private readBlockHeader(): void {
    // Queued with the block's body, from the chunk.
    this.blockHeaderRead = this.gather(
      this.blockHeader,
      this.blockHeaderRead,
      BLOCK_HEADER_BYTES,
    );
    if (this.blockHeaderRead < BLOCK_HEADER_BYTES) return;
    this.blockHeaderRead = 0;
    const block = readBlockHeader(this.blockHeader);
    this.lastBlock = block.last;
    this.left = block.bodyBytes;
    this.step = 'body';
    if (this.left === 0) this.endPart();
  }

  /** On through a block's body, a checksum or a skippable frame. */
  private readPart(): void {
    const taken = Math.min(this.left, this.chunk.length - this.at);
    this.at += taken;
    this.left -= taken;
    // A skippable frame never reaches libzstd.
    if (this.step === 'skip') this.from = this.at;
    if (this.left === 0) this.endPart();
  }

  /** The current block, checksum or skippable frame is complete. */
  private endPart(): void {
    const step = this.step;
    this.step = 'frame';
    if (step === 'body' && !this.lastBlock) this.step = 'block';
    else if (step === 'body' && this.checksum) {
      this.step = 'checksum';
      this.left = CHECKSUM_BYTES;
    }
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

  /** The bytes of the chunk walked and not yet queued. */
  private take(): Uint8Array {
    const piece = this.chunk.subarray(this.from, this.at);
    this.from = this.at;
    return piece;
  }
}

/** Decodes `data` whole; throws `ZstdLimitError` past `maxBytes` of output. */
export function zstdDecompress(data: Uint8Array, maxBytes: number): Buffer {
  const decoder = new ZstdStreamDecoder(maxBytes);
  const pieces: Uint8Array[] = [];
  try {
    decoder.feed(data);
    for (let out = decoder.next(); out; out = decoder.next())
      pieces.push(...out);
    pieces.push(...decoder.end());
  } finally {
    decoder.close();
  }
  return Buffer.concat(pieces);
}
