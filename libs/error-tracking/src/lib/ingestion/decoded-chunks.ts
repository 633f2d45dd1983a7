import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream';

import { TransportError } from '@quitanda/kernel';

import { bodyChunks } from '../http/read-body';
import {
  corrupt,
  decodeBody,
  encodingsOf,
  streamingDecoder,
  tooLarge,
} from './decode-body';

export interface DecodeLimits {
  /** Told the size of every decoded chunk (the body budget); may throw. */
  readonly hold: (bytes: number) => void;
  /** Largest body as sent. */
  readonly maxBodyBytes: number;
  /** Largest body once decoded. */
  readonly maxDecodedBytes: number;
}

async function* limited(
  chunks: AsyncIterable<Buffer>,
  maxBytes: number,
  hold?: (bytes: number) => void,
): AsyncGenerator<Buffer> {
  let total = 0;
  for await (const chunk of chunks) {
    total += chunk.length;
    if (total > maxBytes) throw tooLarge(maxBytes);
    hold?.(chunk.length);
    yield chunk;
  }
}

async function* prepend(
  first: Buffer,
  rest: AsyncIterator<Buffer>,
): AsyncGenerator<Buffer> {
  yield first;
  for (let next = await rest.next(); !next.done; next = await rest.next())
    yield next.value;
}

/**
 * The body of `req` decoded as it arrives (gzip, deflate, br: one encoding,
 * as SDKs send), never more than the limits: a reader that stops early
 * (a wrong key in the envelope header) has inflated only what it read.
 * Other encodings (zstd, lists) are read and decoded whole, bomb-safe, and
 * come as one chunk.
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
  const decoder =
    encodings.length === 1
      ? streamingDecoder(encoding, first.value)
      : undefined;
  if (!decoder) {
    const parts: Buffer[] = [];
    for await (const chunk of prepend(first.value, raw)) parts.push(chunk);
    yield await decodeBody(
      Buffer.concat(parts),
      contentEncoding,
      limits.maxDecodedBytes,
      limits.hold,
    );
    return;
  }
  let failure: unknown;
  const decoded = pipeline(
    Readable.from(prepend(first.value, raw)),
    decoder,
    (error) => {
      failure = error;
    },
  );
  try {
    yield* limited(decoded, limits.maxDecodedBytes, limits.hold);
  } catch (error) {
    if (error instanceof TransportError) throw error;
    throw failure instanceof TransportError ? failure : corrupt(encoding);
  } finally {
    decoded.destroy();
  }
}
