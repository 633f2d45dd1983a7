const NEWLINE = 0x0a;

/**
 * Bytes received and not yet framed, kept as the chunks they arrived in:
 * a payload spread over many chunks is copied once, when it is taken, and
 * a search for the next newline never rescans what it searched before, so
 * framing stays linear in the body's size however it is chunked.
 */
export class PendingBytes {
  private chunks: Buffer[] = [];
  /** Bytes of `chunks[0]` already taken. */
  private head = 0;
  /** Bytes from the front known to hold no newline. */
  private scanned = 0;
  length = 0;

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  /** Offset of the first newline, or -1. */
  indexOfNewline(): number {
    let offset = 0;
    for (const [i, chunk] of this.chunks.entries()) {
      const start = i === 0 ? this.head : 0;
      const size = chunk.length - start;
      if (offset + size > this.scanned) {
        const from = start + Math.max(0, this.scanned - offset);
        const at = chunk.indexOf(NEWLINE, from);
        if (at >= 0) return offset + at - start;
      }
      offset += size;
    }
    this.scanned = this.length;
    return -1;
  }

  /** The first byte, if any. */
  peek(): number | undefined {
    return this.chunks[0]?.[this.head];
  }

  /** Removes and returns the first `count` bytes (a view when they are in one chunk). */
  take(count: number): Buffer {
    const first = this.chunks[0];
    if (first && first.length - this.head >= count) {
      const taken = first.subarray(this.head, this.head + count);
      this.drop(count);
      return taken;
    }
    const parts: Buffer[] = [];
    let missing = count;
    for (const [i, chunk] of this.chunks.entries()) {
      if (missing === 0) break;
      const start = i === 0 ? this.head : 0;
      const part = chunk.subarray(start, start + missing);
      parts.push(part);
      missing -= part.length;
    }
    this.drop(count);
    return Buffer.concat(parts, count);
  }

  /** Removes the first `count` bytes. */
  drop(count: number): void {
    this.length -= count;
    this.scanned = Math.max(0, this.scanned - count);
    let left = count;
    while (left > 0) {
      const first = this.chunks[0] as Buffer;
      const available = first.length - this.head;
      if (available > left) {
        this.head += left;
        return;
      }
      left -= available;
      this.chunks.shift();
      this.head = 0;
    }
    if (this.chunks[0]?.length === this.head) {
      this.chunks.shift();
      this.head = 0;
    }
  }

  /**
   * Drops the whitespace at the front, in one pass; whether it held a
   * newline (a blank line).
   */
  dropWhitespace(): boolean {
    let count = 0;
    let newline = false;
    for (const [i, chunk] of this.chunks.entries()) {
      let j = i === 0 ? this.head : 0;
      for (; j < chunk.length; j++) {
        const byte = chunk[j];
        if (byte === NEWLINE) newline = true;
        else if (byte !== 0x0d && byte !== 0x20 && byte !== 0x09) break;
        count += 1;
      }
      if (j < chunk.length) break;
    }
    if (count > 0) this.drop(count);
    return newline;
  }

  /** Whether every pending byte is whitespace (a body's trailing newlines). */
  onlyWhitespace(): boolean {
    for (const [i, chunk] of this.chunks.entries()) {
      for (let j = i === 0 ? this.head : 0; j < chunk.length; j++) {
        const byte = chunk[j];
        if (byte !== 0x0a && byte !== 0x0d && byte !== 0x20 && byte !== 0x09)
          return false;
      }
    }
    return true;
  }
}
