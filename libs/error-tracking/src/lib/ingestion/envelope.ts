import { isJsonObject } from '../sentry-event/event-json';
import type { JsonObject } from '../sentry-event/event-json';
import { parsePayloadJson } from './payload-json';

/**
 * Sentry envelopes: a header line, then items, each a header line and a
 * payload of exactly `length` bytes (or up to the next newline without
 * `length`). Payloads stay bytes: attachments may be binary.
 */

const NEWLINE = 0x0a;

export interface EnvelopeItem {
  readonly header: JsonObject;
  /** `header.type` when it is a string, else `''`. */
  readonly type: string;
  readonly payload: Buffer;
}

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

function parseHeaderLine(
  body: Buffer,
  start: number,
  end: number,
  what: string,
): JsonObject {
  let value: unknown;
  try {
    value = parsePayloadJson(body, start, end);
  } catch {
    throw new EnvelopeFramingError(`${what} is not valid JSON`);
  }
  if (!isJsonObject(value))
    throw new EnvelopeFramingError(`${what} is not a JSON object`);
  return value;
}

function onlyWhitespace(body: Buffer, from: number): boolean {
  for (let i = from; i < body.length; i++) {
    const byte = body[i];
    if (byte !== 0x0a && byte !== 0x0d && byte !== 0x20 && byte !== 0x09)
      return false;
  }
  return true;
}

function lineEnd(body: Buffer, from: number): number {
  const newline = body.indexOf(NEWLINE, from);
  return newline < 0 ? body.length : newline;
}

export function parseEnvelope(body: Buffer): Envelope {
  if (body.length === 0) throw new EnvelopeFramingError('empty envelope');
  const headerEnd = lineEnd(body, 0);
  const header = parseHeaderLine(body, 0, headerEnd, 'envelope header');
  const items: EnvelopeItem[] = [];
  let position = headerEnd + 1;
  while (position < body.length && !onlyWhitespace(body, position)) {
    const itemHeaderEnd = lineEnd(body, position);
    const itemHeader = parseHeaderLine(
      body,
      position,
      itemHeaderEnd,
      `header of item ${items.length + 1}`,
    );
    const payloadStart = Math.min(itemHeaderEnd + 1, body.length);
    const length = itemHeader['length'];
    let payloadEnd: number;
    if (length === undefined || length === null) {
      payloadEnd = lineEnd(body, payloadStart);
    } else {
      if (
        typeof length !== 'number' ||
        !Number.isSafeInteger(length) ||
        length < 0
      )
        throw new EnvelopeFramingError(
          `item ${items.length + 1} has an invalid length`,
        );
      payloadEnd = payloadStart + length;
      if (payloadEnd > body.length)
        throw new EnvelopeFramingError(
          `item ${items.length + 1} is shorter than its length (${length} bytes)`,
        );
      if (payloadEnd < body.length && body[payloadEnd] !== NEWLINE)
        throw new EnvelopeFramingError(
          `item ${items.length + 1} is longer than its length (${length} bytes)`,
        );
    }
    const type = itemHeader['type'];
    items.push({
      header: itemHeader,
      type: typeof type === 'string' ? type : '',
      payload: body.subarray(payloadStart, payloadEnd),
    });
    position = payloadEnd + 1;
  }
  return { header, items };
}
