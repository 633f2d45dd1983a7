import type { IncomingMessage } from 'node:http';

import { holdBodyBytes, noteBodyLimit } from '@quitanda/http';
import { TransportError, TransportErrorKind } from '@quitanda/kernel';

function tooLarge(maxBytes: number): TransportError {
  return new TransportError(
    TransportErrorKind.PayloadTooLarge,
    `The request body is larger than ${maxBytes} bytes.`,
  );
}

/** Refuses a declared length over the limit before anything is read. */
function checkDeclared(
  req: IncomingMessage,
  maxBytes: number,
): number | undefined {
  noteBodyLimit(req, maxBytes);
  const declared = Number(req.headers['content-length']);
  if (!Number.isFinite(declared)) return undefined;
  if (declared > maxBytes) throw tooLarge(maxBytes);
  return declared;
}

/**
 * `checkDeclared`, and the declared length held of the gateway's body
 * budget; the length, when declared.
 */
function holdDeclared(
  req: IncomingMessage,
  maxBytes: number,
): number | undefined {
  const declared = checkDeclared(req, maxBytes);
  if (declared !== undefined) holdBodyBytes(req, declared);
  return declared;
}

/** Declared bodies from this size on are read into one buffer of their size. */
const PREALLOCATE_FROM_BYTES = 64 * 1024;

/**
 * Reads a request body as sent (Content-Length or chunked, any
 * Content-Type), refusing more than `maxBytes`: a declared length over the
 * limit is refused before reading, a streamed one as soon as it passes it.
 * The bytes count against the gateway's body budget (429 past it): a
 * declared length before reading, a chunked body as it arrives.
 */
export function readBody(
  req: IncomingMessage,
  maxBytes: number,
): Promise<Buffer> {
  let declared: number | undefined;
  try {
    declared = holdDeclared(req, maxBytes);
  } catch (error) {
    return Promise.reject(error);
  }
  // A large body is copied into place as it arrives, never held twice
  // (its chunks and their concatenation).
  const whole =
    declared !== undefined && declared >= PREALLOCATE_FROM_BYTES
      ? Buffer.allocUnsafe(declared)
      : undefined;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
    };
    const fail = (error: TransportError) => {
      if (settled) return;
      settled = true;
      cleanup();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      try {
        if (total > maxBytes) throw tooLarge(maxBytes);
        if (declared === undefined) holdBodyBytes(req, chunk.length);
      } catch (error) {
        req.pause();
        fail(error as TransportError);
        return;
      }
      if (whole) chunk.copy(whole, total - chunk.length);
      else chunks.push(chunk);
    };
    const onEnd = () => {
      if (settled) return;
      settled = true;
      cleanup();
      if (whole) resolve(whole.subarray(0, total));
      else
        resolve(
          chunks.length === 1
            ? (chunks[0] as Buffer)
            : Buffer.concat(chunks, total),
        );
    };
    const onError = () =>
      fail(
        new TransportError(
          TransportErrorKind.MalformedBody,
          'The request body could not be read.',
        ),
      );
    const onAborted = () =>
      fail(
        new TransportError(
          TransportErrorKind.MalformedBody,
          'The request body was cut short.',
        ),
      );
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

/**
 * The body's chunks as they arrive, refusing more than `maxBytes` like
 * `readBody`. Nothing is held of the body budget: the caller holds what it
 * keeps. Leaving the loop early leaves the request open (not destroyed),
 * so an early answer can still be written and the rest of the body read
 * through.
 */
export async function* bodyChunks(
  req: IncomingMessage,
  maxBytes: number,
): AsyncGenerator<Buffer> {
  checkDeclared(req, maxBytes);
  let total = 0;
  try {
    for await (const chunk of req.iterator({ destroyOnReturn: false })) {
      total += (chunk as Buffer).length;
      if (total > maxBytes) throw tooLarge(maxBytes);
      yield chunk as Buffer;
    }
  } catch (error) {
    if (error instanceof TransportError) throw error;
    throw new TransportError(
      TransportErrorKind.MalformedBody,
      'The request body was cut short.',
    );
  }
}
