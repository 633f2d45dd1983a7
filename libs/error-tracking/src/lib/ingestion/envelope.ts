import { TransportError, TransportErrorKind } from '@quitanda/kernel';

import { isJsonObject } from '../sentry-event/event-json';
import type { JsonObject } from '../sentry-event/event-json';
import { parsePayloadJson } from './payload-json';
import { PendingBytes } from './pending-bytes';

/**
 * Sentry envelopes: a header line, then items, each a header line and a
 * payload of exactly `length` bytes (or up to the next newline without
 * `length`). Payloads stay bytes: attachments may be binary.
 */

const NEWLINE = 0x0a;
const EMPTY = Buffer.alloc(0);
/**
 * Longest envelope or item header line: SDKs send a few hundred bytes (ids,
 * dsn, sdk, trace); a longer one is refused before it is buffered further.
 */
const MAX_HEADER_LINE_BYTES = 64 * 1024;

export interface EnvelopeItem {
  readonly header: JsonObject;
  /** `header.type` when it is a string, else `''`. */
  readonly type: string;
  /**
   * Empty for an item read through and dropped (`ItemPolicy.keeps`); for a
   * streamed item (`ItemPolicy.streams`), the piece that just arrived.
   */
  readonly payload: Buffer;
  /**
   * Set on each piece of a streamed item: `more` until its last piece,
   * `last` on that one (its payload possibly empty).
   */
  readonly streamed?: 'more' | 'last';
}

/**
 * Which items are kept, and how much of one may be held: an item not kept
 * is read through and dropped as its bytes arrive, so an envelope of large
 * attachments costs no more memory than its kept items.
 */
export interface ItemPolicy {
  keeps(type: string): boolean;
  /** Largest payload of a kept item (413 past it, before it is buffered). */
  readonly maxKeptBytes: number;
  /** Told each kept payload's size before it is buffered; may throw. */
  hold(bytes: number): void;
  /**
   * Whether an item not kept, of a declared `length`, is handed out piece
   * by piece as its bytes arrive (never held whole) rather than dropped.
   */
  streams?(type: string, length: number): boolean;
}

/** Keeps every item, whatever its size (a whole envelope at once). */
const KEEP_ALL: ItemPolicy = {
  keeps: () => true,
  maxKeptBytes: Number.POSITIVE_INFINITY,
  hold: () => undefined,
};

export interface Envelope {
  readonly header: JsonObject;
  readonly items: readonly EnvelopeItem[];
}

/** Broken framing: the whole envelope is refused (400), nothing stored. */
export class EnvelopeFramingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnvelopeFramingError';
  }
}

function parseHeaderLine(line: Buffer, what: string): JsonObject {
  let value: unknown;
  try {
    value = parsePayloadJson(line);
  } catch {
    throw new EnvelopeFramingError(`${what} is not valid JSON`);
  }
  if (!isJsonObject(value))
    throw new EnvelopeFramingError(`${what} is not a JSON object`);
  return value;
}

type State =
  | { readonly kind: 'header' }
  | { readonly kind: 'item-header' }
  | {
      readonly kind: 'payload';
      readonly header: JsonObject;
      readonly length?: number;
    }
  | {
      readonly kind: 'stream';
      readonly header: JsonObject;
      readonly length: number;
      /** Bytes still to hand out. */
      remaining: number;
    }
  | {
      readonly kind: 'skip';
      readonly header: JsonObject;
      readonly length?: number;
      /** Bytes still to drop; undefined: up to the next newline. */
      remaining?: number;
    };

function isBlank(line: Buffer): boolean {
  for (const byte of line)
    if (byte !== 0x0a && byte !== 0x0d && byte !== 0x20 && byte !== 0x09)
      return false;
  return true;
}

function typeOf(header: JsonObject): string {
  const type = header['type'];
  return typeof type === 'string' ? type : '';
}

/** An item's `length`, if it declares one; a broken one is broken framing. */
function declaredLength(header: JsonObject, index: number): number | undefined {
  const length = header['length'];
  if (length === undefined || length === null) return undefined;
  if (typeof length !== 'number' || !Number.isSafeInteger(length) || length < 0)
    throw new EnvelopeFramingError(`item ${index} has an invalid length`);
  return length;
}

function itemTooLarge(type: string, maxBytes: number): TransportError {
  return new TransportError(
    TransportErrorKind.PayloadTooLarge,
    type === 'event'
      ? `An event is larger than ${maxBytes} bytes.`
      : `An item of type "${type}" is larger than ${maxBytes} bytes.`,
  );
}

function tooManyItems(maxItems: number): TransportError {
  return new TransportError(
    TransportErrorKind.PayloadTooLarge,
    `The envelope has more than ${maxItems} items.`,
  );
}

/**
 * Frames an envelope as its bytes arrive, chunk by chunk: the header as soon
 * as its line is complete (the key in its `dsn` can be checked before the
 * rest is read), then each item once its payload is. Past `maxItems` items
 * it refuses (413) before parsing another item header, so a body of
 * millions of tiny items costs no more than `maxItems` of them. Items the
 * policy does not keep are dropped as they arrive (framed with an empty
 * payload); a kept one is refused (413) as soon as it is known to be
 * larger than the policy allows.
 */
export class EnvelopeFramer {
  /** The envelope header, once its line is complete. */
  header: JsonObject | undefined;
  private readonly pending = new PendingBytes();
  private state: State = { kind: 'header' };
  private items = 0;
  /** A blank line after the last item: fine at the end only. */
  private blankLine = false;
  private empty = true;

  constructor(
    private readonly maxItems = Number.POSITIVE_INFINITY,
    private readonly policy: ItemPolicy = KEEP_ALL,
  ) {}

  /** Bytes received and held, not yet framed. */
  get bufferedBytes(): number {
    return this.pending.length;
  }

  /**
   * Frames what `chunk` completes: the items it finishes, in order. Stops
   * right after the envelope header (no items yet): the next `push`, an
   * empty chunk will do, frames on.
   */
  push(chunk: Buffer): EnvelopeItem[] {
    if (chunk.length > 0) this.empty = false;
    this.pending.push(chunk);
    return this.frame(false);
  }

  /** The body is over: frames what is left (an unterminated last line). */
  end(): EnvelopeItem[] {
    if (this.empty) throw new EnvelopeFramingError('empty envelope');
    const hadHeader = this.header !== undefined;
    const items = this.frame(true);
    if (!hadHeader && this.header) items.push(...this.frame(true));
    if (this.state.kind === 'header')
      this.header = parseHeaderLine(
        this.pending.take(this.pending.length),
        'envelope header',
      );
    return items;
  }

  private frame(atEnd: boolean): EnvelopeItem[] {
    const items: EnvelopeItem[] = [];
    for (;;) {
      const state = this.state;
      if (state.kind === 'skip') {
        if (!this.skip(state, atEnd)) return items;
        items.push(this.framed(state.header, EMPTY));
        this.state = { kind: 'item-header' };
        continue;
      }
      if (state.kind === 'stream') {
        const piece = this.stream(state, atEnd);
        if (!piece) return items;
        items.push(piece);
        if (piece.streamed === 'last') this.state = { kind: 'item-header' };
        continue;
      }
      if (state.kind === 'payload') {
        const item = this.payload(state, atEnd);
        if (!item) return items;
        items.push(item);
        this.state = { kind: 'item-header' };
        continue;
      }
      // A run of blank lines goes at once, not line by line: 100 MiB of
      // newlines (100 KB gzipped) took minutes one line at a time.
      if (state.kind === 'item-header' && this.pending.dropWhitespace())
        this.blankLine = true;
      const line = this.line(atEnd);
      if (!line) return items;
      if (state.kind === 'header') {
        this.header = parseHeaderLine(line, 'envelope header');
        this.state = { kind: 'item-header' };
        // The caller checks the header before any item is framed.
        return items;
      } else if (isBlank(line)) {
        this.blankLine = true;
      } else {
        this.state = this.itemHeader(line);
      }
    }
  }

  /** The next complete line, its newline dropped; at the end, what is left. */
  private line(atEnd: boolean): Buffer | undefined {
    const newline = this.pending.indexOfNewline();
    if (newline >= 0) {
      const line = this.pending.take(newline);
      this.pending.drop(1);
      return line;
    }
    if (
      this.state.kind !== 'payload' &&
      this.pending.length > MAX_HEADER_LINE_BYTES
    )
      throw new EnvelopeFramingError(
        `a header line is longer than ${MAX_HEADER_LINE_BYTES} bytes`,
      );
    if (!atEnd || this.pending.length === 0 || this.state.kind === 'header')
      return undefined;
    return this.pending.take(this.pending.length);
  }

  private itemHeader(line: Buffer): State {
    const what = `header of item ${this.items + 1}`;
    if (this.blankLine)
      throw new EnvelopeFramingError(`${what} is not valid JSON`);
    if (this.items >= this.maxItems) throw tooManyItems(this.maxItems);
    const header = parseHeaderLine(line, what);
    const length = declaredLength(header, this.items + 1);
    const type = typeOf(header);
    if (!this.policy.keeps(type)) {
      if (length !== undefined && this.policy.streams?.(type, length))
        return { kind: 'stream', header, length, remaining: length };
      return { kind: 'skip', header, length, remaining: length };
    }
    if (length === undefined) return { kind: 'payload', header };
    if (length > this.policy.maxKeptBytes)
      throw itemTooLarge(type, this.policy.maxKeptBytes);
    this.policy.hold(length);
    return { kind: 'payload', header, length };
  }

  /**
   * Drops what has arrived of a skipped item's payload; true once all of
   * it (and its newline) is gone.
   */
  private skip(
    state: Extract<State, { kind: 'skip' }>,
    atEnd: boolean,
  ): boolean {
    if (state.remaining === undefined) {
      const newline = this.pending.indexOfNewline();
      if (newline >= 0) {
        this.pending.drop(newline + 1);
        return true;
      }
      this.pending.drop(this.pending.length);
      return atEnd;
    }
    const dropped = Math.min(state.remaining, this.pending.length);
    this.pending.drop(dropped);
    state.remaining -= dropped;
    if (state.remaining > 0) {
      if (atEnd)
        throw new EnvelopeFramingError(
          `item ${this.items + 1} is shorter than its length (${state.length} bytes)`,
        );
      return false;
    }
    if (this.pending.length === 0) return atEnd;
    if (this.pending.peek() !== NEWLINE)
      throw new EnvelopeFramingError(
        `item ${this.items + 1} is longer than its length (${state.length} bytes)`,
      );
    this.pending.drop(1);
    return true;
  }

  /**
   * What has arrived of a streamed item's payload, as a piece (`more`), or
   * its end (`last`) once all of it and its newline are in; undefined when
   * there is nothing new.
   */
  private stream(
    state: Extract<State, { kind: 'stream' }>,
    atEnd: boolean,
  ): EnvelopeItem | undefined {
    if (state.remaining > 0) {
      const count = Math.min(state.remaining, this.pending.length);
      if (count === 0) {
        if (atEnd) throw this.shorter(state.length);
        return undefined;
      }
      state.remaining -= count;
      return this.piece(state.header, this.pending.take(count));
    }
    if (this.pending.length === 0 && !atEnd) return undefined;
    if (this.pending.length > 0) {
      if (this.pending.peek() !== NEWLINE)
        throw new EnvelopeFramingError(
          `item ${this.items + 1} is longer than its length (${state.length} bytes)`,
        );
      this.pending.drop(1);
    }
    return { ...this.framed(state.header, EMPTY), streamed: 'last' };
  }

  private piece(header: JsonObject, payload: Buffer): EnvelopeItem {
    return { header, type: typeOf(header), payload, streamed: 'more' };
  }

  private shorter(length: number): EnvelopeFramingError {
    return new EnvelopeFramingError(
      `item ${this.items + 1} is shorter than its length (${length} bytes)`,
    );
  }

  private payload(
    state: Extract<State, { kind: 'payload' }>,
    atEnd: boolean,
  ): EnvelopeItem | undefined {
    let payload: Buffer | undefined;
    if (state.length === undefined) {
      payload = this.line(atEnd) ?? (atEnd ? Buffer.alloc(0) : undefined);
      const size = payload?.length ?? this.pending.length;
      if (size > this.policy.maxKeptBytes)
        throw itemTooLarge(typeOf(state.header), this.policy.maxKeptBytes);
      if (payload) this.policy.hold(payload.length);
    } else if (this.pending.length > state.length) {
      payload = this.pending.take(state.length);
      if (this.pending.peek() !== NEWLINE)
        throw new EnvelopeFramingError(
          `item ${this.items + 1} is longer than its length (${state.length} bytes)`,
        );
      this.pending.drop(1);
    } else if (atEnd) {
      if (this.pending.length < state.length)
        throw new EnvelopeFramingError(
          `item ${this.items + 1} is shorter than its length (${state.length} bytes)`,
        );
      payload = this.pending.take(state.length);
    }
    if (!payload) return undefined;
    return this.framed(state.header, payload);
  }

  private framed(header: JsonObject, payload: Buffer): EnvelopeItem {
    this.items += 1;
    return { header, type: typeOf(header), payload };
  }
}

/** A whole envelope at once (at most `maxItems` items, else 413). */
export function parseEnvelope(
  body: Buffer,
  maxItems = Number.POSITIVE_INFINITY,
): Envelope {
  const framer = new EnvelopeFramer(maxItems);
  const items = framer.push(body);
  items.push(...framer.push(EMPTY), ...framer.end());
  return { header: framer.header as JsonObject, items };
}
