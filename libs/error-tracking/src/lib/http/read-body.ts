import type { IncomingMessage } from 'node:http';

import { TransportError, TransportErrorKind } from '@quitanda/kernel';

function tooLarge(maxBytes: number): TransportError {
  return new TransportError(
    TransportErrorKind.PayloadTooLarge,
    `The request body is larger than ${maxBytes} bytes.`,
  );
}

/**
 * Reads a request body as sent (Content-Length or chunked, any
 * Content-Type), refusing more than `maxBytes`: a declared length over the
 * limit is refused before reading, a streamed one as soon as it passes it.
 */
export function readBody(
  req: IncomingMessage,
  maxBytes: number,
): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes)
    return Promise.reject(tooLarge(maxBytes));
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
      if (total > maxBytes) {
        req.pause();
        fail(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      if (settled) return;
      settled = true;
      cleanup();
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
