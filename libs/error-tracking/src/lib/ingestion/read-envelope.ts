import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

import { ErrorTrackingError } from '../common/error-tracking.errors';
import type { JsonObject } from '../sentry-event/event-json';
import { EnvelopeFramer, EnvelopeFramingError } from './envelope';
import type { EnvelopeItem } from './envelope';
import { EnvelopeItemsParser, isKeptItemType } from './prepare-request';
import type { ParsedRequest, PrepareContext } from './prepare-request';
import type { Discard } from './release-health-items';

/**
 * Bytes framed or parsed between two turns of the event loop: about a
 * millisecond of JSON.parse, so a 100 MiB envelope never holds up the
 * other requests for long, and an ordinary one never waits.
 */
const YIELD_EVERY_BYTES = 256 * 1024;

/** Where attachment items go as they stream in (the collector's intake). */
export interface AttachmentSink {
  /** Whether an attachment of `length` bytes is streamed here. */
  streams(type: string, length: number): boolean;
  /** An attachment read through and dropped instead. */
  skipped(item: EnvelopeItem): void;
  /** A piece of a streamed attachment, in order (`streamed: 'last'` ends it). */
  piece(item: EnvelopeItem): Promise<void>;
  /** Attachments not kept, counted with the request's discards. */
  readonly discards: readonly Discard[];
}

export interface ReadEnvelopeOptions {
  readonly context: PrepareContext;
  /** Most items in one envelope (413 past it). */
  readonly maxItems: number;
  /**
   * Told the size of each kept item's payload before it is buffered (the
   * gateway's body budget); may throw. Skipped items are never buffered.
   */
  readonly hold?: (bytes: number) => void;
  /**
   * Called once, as soon as the envelope header is read and before any item
   * is parsed (the key check when only the header's `dsn` carries the key);
   * what it throws ends the reading.
   */
  readonly onHeader?: (header: JsonObject) => Promise<void>;
  /** Attachments to keep; without it they are skipped like other items. */
  readonly attachments?: AttachmentSink;
}

/**
 * Frames and parses an envelope as its chunks come in (a request streaming
 * in, or one decoded buffer), item by item, yielding to the event loop as
 * it goes. Only the items the parser reads are held, each at most one
 * event's size (413 past it); attachments go to `attachments` piece by
 * piece as they arrive; the others (transactions, ...) are dropped as they
 * stream through. Broken framing is the collector's 400.
 */
export async function readEnvelope(
  chunks: AsyncIterable<Buffer> | Iterable<Buffer>,
  options: ReadEnvelopeOptions,
): Promise<{ request: ParsedRequest; header: JsonObject }> {
  const { attachments } = options;
  const framer = new EnvelopeFramer(options.maxItems, {
    keeps: isKeptItemType,
    maxKeptBytes: options.context.maxEventBytes,
    hold: options.hold ?? (() => undefined),
    streams:
      attachments && ((type, length) => attachments.streams(type, length)),
  });
  const parser = new EnvelopeItemsParser(options.context);
  let headerChecked = false;
  let sinceYield = 0;
  const pause = async (bytes: number): Promise<void> => {
    sinceYield += bytes;
    if (sinceYield < YIELD_EVERY_BYTES) return;
    sinceYield = 0;
    await yieldToEventLoop();
  };
  const parse = async (framed: readonly EnvelopeItem[]): Promise<void> => {
    const header = framer.header;
    if (!header) return;
    let items = framed;
    if (!headerChecked) {
      headerChecked = true;
      await options.onHeader?.(header);
      // The framer stopped after the header: on to the items.
      items = [...items, ...framer.push(Buffer.alloc(0))];
    }
    for (const item of items) {
      if (item.streamed && attachments) await attachments.piece(item);
      else if (attachments && item.type === 'attachment')
        attachments.skipped(item);
      else parser.add(item, header);
      await pause(item.payload.length);
    }
  };
  try {
    for await (const chunk of chunks) {
      await parse(framer.push(chunk));
      await pause(chunk.length);
    }
    await parse(framer.end());
  } catch (error) {
    if (error instanceof EnvelopeFramingError)
      throw ErrorTrackingError.badRequest(
        `Malformed envelope: ${error.message}`,
      );
    throw error;
  }
  const request = parser.request;
  return {
    request: attachments
      ? { ...request, discards: [...request.discards, ...attachments.discards] }
      : request,
    header: framer.header as JsonObject,
  };
}
