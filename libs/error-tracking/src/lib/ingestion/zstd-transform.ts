import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';

import { ZstdStreamDecoder } from './zstd-stream';

/**
 * zstd undone as a Node stream, as zlib's streams undo gzip, deflate and
 * br, within `ZstdStreamDecoder`'s checks. Unlike zlib's, it waits for its
 * reader between two pieces of output: a chunk that decodes to a lot (RLE
 * blocks are 4 bytes for 128 KiB) is decoded as it is read, 128 KiB at a
 * time, never whole. `hold` is told the window's bytes as they fill: no
 * more than the stream has put out, up to its largest frame's window (one
 * is held at a time), so a frame header alone holds nothing of the budget.
 * libzstd's context is freed at the end, on an error, or when destroyed.
 */
export class ZstdDecompressStream extends Transform {
  private readonly decoder: ZstdStreamDecoder;
  /** Decodes the rest of the chunk, once the reader wants more. */
  private decodeRest?: () => void;
  private largestWindow = 0;
  private decoded = 0;
  private held = 0;

  constructor(
    maxBytes: number,
    private readonly hold: (bytes: number) => void = () => undefined,
  ) {
    super();
    this.decoder = new ZstdStreamDecoder(maxBytes, (window) => {
      this.largestWindow = Math.max(this.largestWindow, window);
    });
  }

  override _transform(
    chunk: Buffer,
    _encoding: BufferEncoding,
    done: TransformCallback,
  ): void {
    this.decoder.feed(chunk);
    this.decodeOn(done);
  }

  override _flush(done: TransformCallback): void {
    try {
      for (const piece of this.decoder.end()) this.push(piece);
      done();
    } catch (error) {
      done(error as Error);
    }
  }

  override _destroy(
    error: Error | null,
    done: (error?: Error | null) => void,
  ): void {
    this.decoder.close();
    done(error);
  }

  override _read(size: number): void {
    const decodeRest = this.decodeRest;
    if (!decodeRest) {
      super._read(size);
      return;
    }
    this.decodeRest = undefined;
    // Once read() has taken what it reads: finishing the chunk in here,
    // with those bytes still counted, would leave the chunk's callback
    // waiting for a _read that never comes.
    process.nextTick(decodeRest);
  }

  /** The window's bytes that `decoded` more bytes of output have filled. */
  private holdWindow(decoded: number): void {
    this.decoded += decoded;
    const filled = Math.min(this.decoded, this.largestWindow);
    if (filled <= this.held) return;
    this.hold(filled - this.held);
    this.held = filled;
  }

  private decodeOn(done: TransformCallback): void {
    try {
      for (let out = this.decoder.next(); out; out = this.decoder.next()) {
        let wanted = true;
        for (const piece of out) {
          this.holdWindow(piece.length);
          wanted = this.push(piece);
        }
        if (!wanted) {
          this.decodeRest = () => this.decodeOn(done);
          return;
        }
      }
      done();
    } catch (error) {
      done(error as Error);
    }
  }
}
