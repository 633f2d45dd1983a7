import type { IncomingMessage, ServerResponse } from 'node:http';

import { TransportError, TransportErrorKind } from '@quitanda/kernel';

import { noteBodyLimit } from './body-limit';
import { DEFAULT_BODY_BUDGET_BYTES } from './body-budget-default';

/** What a refused request is told to wait: bodies in flight last about that. */
const RETRY_AFTER_SECONDS = 1;

/**
 * Bytes of request bodies held in memory at once, across every request in
 * flight: a count, taken before bytes are buffered and given back when the
 * response is over.
 */
export class BodyBudget {
  private used = 0;

  constructor(public capacityBytes: number) {}

  get usedBytes(): number {
    return this.used;
  }

  tryTake(bytes: number): boolean {
    if (this.used + bytes > this.capacityBytes) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }
}

/**
 * The one budget of this process, shared by every context's body readers
 * (JSON and form bodies, uploads, collector bodies and what they inflate
 * to); the gateway sets its capacity at boot.
 */
export const BODY_BUDGET = new BodyBudget(DEFAULT_BODY_BUDGET_BYTES);

const HELD = Symbol('quitanda.body-budget');

type Holding = IncomingMessage & {
  [HELD]?: { bytes: number };
  /** Express's link to the response. */
  res?: ServerResponse;
};

function refusal(bytes: number, budget: BodyBudget): TransportError {
  // A body the whole budget could never hold will not fit later either.
  if (bytes > budget.capacityBytes)
    return new TransportError(
      TransportErrorKind.PayloadTooLarge,
      `The request body needs more than the ${budget.capacityBytes} bytes this server buffers at once (its bytes, and what JSON parses into).`,
    );
  return new TransportError(
    TransportErrorKind.TooManyRequests,
    'The server is busy reading other request bodies; retry shortly.',
    [],
    RETRY_AFTER_SECONDS,
  );
}

/**
 * Takes `bytes` more of the budget for `req` (held until its response is
 * over, whatever happens), or throws: 429 with `Retry-After` while other
 * bodies hold the budget, 413 for a body the budget could never hold.
 */
export function holdBodyBytes(
  req: IncomingMessage,
  bytes: number,
  budget: BodyBudget = BODY_BUDGET,
): void {
  const holding = req as Holding;
  const done = holding.res ?? req;
  // Answered already (a missed deadline): the reader is about to stop.
  if (done.destroyed) return;
  const held = holding[HELD];
  if (!budget.tryTake(bytes)) throw refusal((held?.bytes ?? 0) + bytes, budget);
  if (held) {
    held.bytes += bytes;
    return;
  }
  const hold = { bytes };
  holding[HELD] = hold;
  const release = () => {
    budget.give(hold.bytes);
    hold.bytes = 0;
  };
  // The response's close comes once it is sent or the connection is gone.
  done.once('close', release);
}

/**
 * What one parsed JSON value is counted as in V8's heap (an object, array,
 * string or number, with its slot in its parent): 85,000 empty objects in
 * an array, parsed, held 5.4 MB, 64 bytes each. A body's text can be small
 * beside what it parses into (`{},` is 3 bytes of text, an object in the
 * heap): 64 one-MiB bodies of empty objects, sent with the app secret, held
 * 2.1 GB. The byte scan below counts such an object twice (its `{` and its
 * `,`); a count of parsed values, once.
 */
export const PARSED_VALUE_BYTES = 64;

/** 1 for the bytes that open a value in JSON (`,` `[` `{`), else 0. */
const VALUE_OPENERS = new Uint8Array(256);
for (const byte of ',[{') VALUE_OPENERS[byte.charCodeAt(0)] = 1;

/**
 * At least how many values JSON `text` parses into, at most a few more:
 * one for the whole, one more per container opened and per separator
 * (separators inside strings count too, which only errs on the safe side).
 * A byte scan, so it can run on the raw body before it is parsed.
 */
export function jsonValuesAtMost(text: Buffer): number {
  let values = 1;
  // A table lookup, not three comparisons: no branch per byte.
  for (let i = 0; i < text.length; i += 1)
    values += VALUE_OPENERS[text[i] as number] as number;
  return values;
}

/**
 * What `values` parsed from a text of `textBytes` take in the heap beyond
 * that text, which is held already.
 */
export function parsedExtraBytes(values: number, textBytes: number): number {
  return Math.max(0, values * PARSED_VALUE_BYTES - textBytes);
}

/**
 * Holds, on top of the text already held for `req`, what its parsed body of
 * `values` values takes in the heap beyond that text, until its response is
 * over; throws as `holdBodyBytes` does (429 while other bodies hold the
 * budget, 413 for one it could never hold). Called with the raw body before
 * it is parsed, so a refused one is never parsed.
 */
export function holdParsedValues(
  req: IncomingMessage,
  values: number,
  budget: BodyBudget = BODY_BUDGET,
): void {
  const more = parsedExtraBytes(values, (req as Holding)[HELD]?.bytes ?? 0);
  if (more > 0) holdBodyBytes(req, more, budget);
}

/**
 * For parsers that buffer a whole body themselves (body-parser), called
 * just before the parser starts reading: the body's bytes are held as they
 * arrive, so a declared length sent slowly (or never) holds only what came;
 * a refusal fails the request stream with the 429 or 413, which the parser
 * hands on. An encoded body, which the parser inflates out of sight, holds
 * the parser's limit up front (and throws). A declared length past the
 * limit holds nothing: the parser refuses it unread.
 */
export function holdParserBody(
  req: IncomingMessage,
  limitBytes: number,
  budget: BodyBudget = BODY_BUDGET,
): void {
  noteBodyLimit(req, limitBytes);
  const declared = Number(req.headers['content-length']);
  const encoded =
    (req.headers['content-encoding'] ?? 'identity') !== 'identity';
  if (Number.isFinite(declared) && declared > limitBytes) return;
  if (encoded) {
    holdBodyBytes(req, limitBytes, budget);
    return;
  }
  const onData = (chunk: Buffer) => {
    // Once answered (a refusal, a limit), what still comes is drained
    // unheld; and a stream nobody reads has no one to fail: an 'error'
    // emitted with no listener would end the process.
    if ((req as Holding).res?.writableEnded) {
      req.off('data', onData);
      return;
    }
    try {
      holdBodyBytes(req, chunk.length, budget);
    } catch (error) {
      req.off('data', onData);
      if (req.listenerCount('error') > 0) req.emit('error', error);
    }
  };
  req.on('data', onData);
  req.once('end', () => req.off('data', onData));
}
