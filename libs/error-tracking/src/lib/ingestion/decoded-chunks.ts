import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { Transform } from 'node:stream';
import { pipeline } from 'node:stream';

import { TransportError } from '@quitanda/kernel';

import { bodyChunks } from '../http/read-body';
import {
  decodeBody,
  decodeFailure,
  decodeSmall,
  decodesAsItStreams,
  encodingsOf,
  streamingDecoder,
  tooLarge,
} from './decode-body';

export interface DecodeLimits {
  /**
   * Told the size of what is held whole before it is decoded (a small
   * body; lists of encodings, which cannot stream) and of what that
   * decodes to, and of a zstd frame's window as it fills; may throw (the
   * body budget).
   */
  readonly hold: (bytes: number) => void;
  /** Largest body as sent. */
  readonly maxBodyBytes: number;
  /** Largest body once decoded. */
  readonly maxDecodedBytes: number;
}

async function* limited(
  chunks: AsyncIterable<Buffer>,
  maxBytes: number,
): AsyncGenerator<Buffer> {
  let total = 0;
  for await (const chunk of chunks) {
    total += chunk.length;
    if (total > maxBytes) throw tooLarge(maxBytes);
    yield chunk;
  }
}

/**
 * `first`, then the rest. `yield*` hands a stop on to `rest`: the request's
 * iterator is released, so the rest of the body can be read and dropped
 * behind an early answer (with a bare loop of `next()` it stayed attached,
 * the body stuck, and the client, still writing, got a reset).
 */
async function* prepend(
  first: Buffer,
  rest: AsyncGenerator<Buffer>,
): AsyncGenerator<Buffer> {
  yield first;
  yield* rest;
}

async function whole(
  chunks: AsyncIterable<Buffer>,
  hold: (bytes: number) => void,
): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) {
    hold(chunk.length);
    parts.push(chunk);
  }
  return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
}

/** Bodies declared up to this size are read whole and decoded at once. */
const SMALL_BODY_BYTES = 64 * 1024;

function declaredSmall(req: IncomingMessage): boolean {
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) && declared <= SMALL_BODY_BYTES;
}

/**
 * The body of `req` decoded as it arrives (none, gzip, deflate, br, zstd:
 * one encoding, as SDKs send), never more than the limits, and never held
 * whole: a reader that stops early (a wrong key in the envelope header)
 * has inflated only what it read, and one that drops what it reads holds
 * nothing. A small body is read whole and inflated at once (cheaper);
 * a list of encodings is read and decoded whole, bomb-safe, held, and
 * comes as one chunk.
 */
export async function* decodedChunks(
  req: IncomingMessage,
  contentEncoding: string | undefined,
  limits: DecodeLimits,
): AsyncGenerator<Buffer> {
  const raw = bodyChunks(req, limits.maxBodyBytes);
  const encodings = encodingsOf(contentEncoding);
  const [encoding] = encodings;
  if (encoding === undefined) {
    yield* limited(raw, limits.maxDecodedBytes);
    return;
  }
  const first = await raw.next();
  if (first.done) {
    yield await decodeBody(
      Buffer.alloc(0),
      contentEncoding,
      limits.maxDecodedBytes,
    );
    return;
  }
  let source: Iterable<Buffer> | AsyncIterable<Buffer> = prepend(
    first.value,
    raw,
  );
  if (encodings.length > 1 || !decodesAsItStreams(encoding)) {
    yield await decodeBody(
      await whole(source, limits.hold),
      contentEncoding,
      limits.maxDecodedBytes,
      limits.hold,
    );
    return;
  }
  if (declaredSmall(req)) {
    const body = await whole(source, limits.hold);
    const decoded = decodeSmall(body, encoding, limits.maxDecodedBytes);
    if (decoded) {
      // Up to 1 MiB held until the envelope is parsed, as any buffer is.
      limits.hold(decoded.length);
      yield decoded;
      return;
    }
    source = [body];
  }
  yield* streamDecoded(source, encoding, first.value, limits);
}

async function* streamDecoded(
  source: Iterable<Buffer> | AsyncIterable<Buffer>,
  encoding: string,
  firstBytes: Buffer,
  limits: DecodeLimits,
): AsyncGenerator<Buffer> {
  let decoder: Transform;
  try {
    decoder = streamingDecoder(
      encoding,
      firstBytes,
      limits.maxDecodedBytes,
      limits.hold,
    ) as Transform;
  } catch (error) {
    // zstd's context could not be made (its memory is spent, for now).
    throw decodeFailure(error, encoding, limits.maxDecodedBytes);
  }
  let failure: unknown;
  const decoded = pipeline(Readable.from(source), decoder, (error) => {
    failure = error;
  });
  try {
    yield* limited(decoded, limits.maxDecodedBytes);
  } catch (error) {
    if (error instanceof TransportError) throw error;
    // The body's own error (a refused read) over what it did to the decoder.
    throw decodeFailure(failure ?? error, encoding, limits.maxDecodedBytes);
  } finally {
    decoded.destroy();
  }
}
