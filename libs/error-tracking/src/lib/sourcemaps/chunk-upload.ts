import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { gunzipSync } from 'node:zlib';

import { holdBodyBytes, noteBodyLimit } from '@quitanda/http';
import { TransportError, TransportErrorKind } from '@quitanda/kernel';
import busboy from 'busboy';

import { ErrorTrackingError } from '../common/error-tracking.errors';
import type { Chunk } from '../artifacts/artifacts.repository';

export interface ChunkLimits {
  /** Largest chunk, uncompressed (the advertised `chunkSize`). */
  readonly chunkBytes: number;
  /** Most chunks in one request (`chunksPerRequest`). */
  readonly chunksPerRequest: number;
  /** Largest request body (`maxRequestSize`). */
  readonly requestBytes: number;
}

const SHA1 = /^[0-9a-f]{40}$/;

function tooLarge(message: string): TransportError {
  return new TransportError(TransportErrorKind.PayloadTooLarge, message);
}

function decode(
  part: string,
  filename: string,
  data: Buffer,
  limits: ChunkLimits,
): Chunk {
  let bytes = data;
  if (part === 'file_gzip') {
    try {
      bytes = gunzipSync(data, { maxOutputLength: limits.chunkBytes });
    } catch (error) {
      // By code: a RangeError of another realm (vm contexts) fails instanceof.
      if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE')
        throw tooLarge(`A chunk is larger than ${limits.chunkBytes} bytes.`);
      throw ErrorTrackingError.badRequest(`Chunk ${filename} is not gzip.`);
    }
  }
  const checksum = createHash('sha1').update(bytes).digest('hex');
  if (checksum !== filename.toLowerCase())
    throw ErrorTrackingError.badRequest(
      `Chunk ${filename} does not match its SHA-1 checksum.`,
    );
  return { checksum, data: bytes };
}

/**
 * sentry-cli's chunk upload: `multipart/form-data` with one `file_gzip`
 * (gzip) or `file` (raw) part per chunk, each named by the SHA-1 of its
 * uncompressed bytes, which is checked.
 */
export function readChunks(
  req: IncomingMessage,
  limits: ChunkLimits,
): Promise<Chunk[]> {
  noteBodyLimit(req, limits.requestBytes);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.requestBytes)
    return Promise.reject(
      tooLarge(`The request body is larger than ${limits.requestBytes} bytes.`),
    );
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      limits: {
        files: limits.chunksPerRequest,
        fileSize: limits.chunkBytes,
        fields: 16,
        fieldSize: 1024,
        parts: limits.chunksPerRequest + 16,
      },
    });
  } catch {
    return Promise.reject(
      ErrorTrackingError.badRequest('Expected a multipart/form-data body.'),
    );
  }
  return new Promise((resolve, reject) => {
    const chunks: Chunk[] = [];
    let received = 0;
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      req.resume();
      reject(error);
    };
    req.on('data', (data: Buffer) => {
      received += data.length;
      if (received > limits.requestBytes)
        fail(
          tooLarge(
            `The request body is larger than ${limits.requestBytes} bytes.`,
          ),
        );
      else if (!failed)
        try {
          holdBodyBytes(req, data.length);
        } catch (error) {
          fail(error as Error);
        }
    });
    parser.on('file', (name, stream, info) => {
      const parts: Buffer[] = [];
      stream.on('data', (data: Buffer) => parts.push(data));
      stream.on('limit', () =>
        fail(tooLarge(`A chunk is larger than ${limits.chunkBytes} bytes.`)),
      );
      stream.on('end', () => {
        if (failed) return;
        const filename = info.filename ?? '';
        if ((name !== 'file' && name !== 'file_gzip') || !SHA1.test(filename)) {
          fail(
            ErrorTrackingError.badRequest(
              'Each part must be a `file` or `file_gzip` named by its SHA-1.',
            ),
          );
          return;
        }
        try {
          chunks.push(decode(name, filename, Buffer.concat(parts), limits));
        } catch (error) {
          fail(error as Error);
        }
      });
    });
    parser.on('filesLimit', () =>
      fail(
        tooLarge(`More than ${limits.chunksPerRequest} chunks in one request.`),
      ),
    );
    parser.on('error', () =>
      fail(
        ErrorTrackingError.badRequest('The multipart body could not be read.'),
      ),
    );
    parser.on('close', () => {
      if (!failed) resolve(chunks);
    });
    req.on('aborted', () =>
      fail(
        new TransportError(
          TransportErrorKind.MalformedBody,
          'The request body was cut short.',
        ),
      ),
    );
    req.pipe(parser);
  });
}
