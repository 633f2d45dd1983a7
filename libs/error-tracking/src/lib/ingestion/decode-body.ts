import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  brotliDecompressSync,
  createBrotliDecompress,
  createGunzip,
  createInflate,
  createInflateRaw,
  gunzipSync,
  inflateRawSync,
  inflateSync,
} from 'node:zlib';
import type { Transform } from 'node:stream';

import { TransportError, TransportErrorKind } from '@quitanda/kernel';

import { zstdDecompress } from './zstd-stream';
import { ZstdDecompressStream } from './zstd-transform';
import { ZstdWasmMemoryError } from './zstd-wasm';

export const SUPPORTED_ENCODINGS = ['gzip', 'deflate', 'br', 'zstd'] as const;

/** Told each decoded size before (or as soon as) it is held in memory; may throw. */
type Hold = (bytes: number) => void;
/** Decodes at once; a RangeError past `maxOutputLength`. */
type Sync = (buffer: Buffer, options: { maxOutputLength: number }) => Buffer;

interface Codec {
  sync: Sync;
  /** `maxBytes` and `hold` for the decoders that need them (zstd's windows). */
  stream: (maxBytes: number, hold: Hold) => Transform;
}

const GZIP: Codec = {
  sync: gunzipSync,
  stream: () => createGunzip(),
};
const ZLIB: Codec = {
  sync: inflateSync,
  stream: () => createInflate(),
};
const RAW_DEFLATE: Codec = {
  sync: inflateRawSync,
  stream: () => createInflateRaw(),
};
const BROTLI: Codec = {
  sync: brotliDecompressSync,
  stream: () => createBrotliDecompress(),
};
const ZSTD: Codec = {
  sync: (body, options) => zstdDecompress(body, options.maxOutputLength),
  stream: (maxBytes, hold) => new ZstdDecompressStream(maxBytes, hold),
};

/** Bodies up to this size decode on the event loop; larger ones off it. */
const SYNC_INPUT_LIMIT = 64 * 1024;
/**
 * Most output a synchronous decode may produce before going async: an
 * event is at most 1 MiB, and what a decode past it had produced is thrown
 * away (at 8 MiB, sixteen small bombs at once left 128 MiB of garbage).
 */
const SYNC_OUTPUT_LIMIT = 1024 * 1024;

export function tooLarge(maxBytes: number): TransportError {
  return new TransportError(
    TransportErrorKind.PayloadTooLarge,
    `The decompressed body is larger than ${maxBytes} bytes.`,
  );
}

/** zstd's memory is held by other streams' windows: a retry soon fits. */
function zstdBusy(): TransportError {
  return new TransportError(
    TransportErrorKind.TooManyRequests,
    'The server is decoding too many zstd bodies at once; retry shortly.',
    [],
    1,
  );
}

export function corrupt(encoding: string): TransportError {
  return new TransportError(
    TransportErrorKind.MalformedBody,
    `The body could not be decoded as ${encoding}.`,
  );
}

function isTooLarge(error: unknown): boolean {
  return (
    error instanceof RangeError ||
    (error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE'
  );
}

/** A decoder's error as the collector answers it: 413 past a limit, else 400. */
export function decodeFailure(
  error: unknown,
  encoding: string,
  maxBytes: number,
): TransportError {
  if (error instanceof TransportError) return error;
  if (error instanceof ZstdWasmMemoryError) return zstdBusy();
  return isTooLarge(error) ? tooLarge(maxBytes) : corrupt(encoding);
}

/** zlib-wrapped deflate (RFC 1950) or raw deflate (RFC 1951), as sent. */
function deflateCodec(body: Buffer): Codec {
  const [cmf, flg] = [body[0] ?? 0, body[1] ?? 0];
  const zlibWrapped = (cmf & 0x0f) === 8 && ((cmf << 8) | flg) % 31 === 0;
  return zlibWrapped ? ZLIB : RAW_DEFLATE;
}

/**
 * Inflates `body` as a stream, each piece held (the gateway's body budget)
 * as it comes out: a RangeError as soon as the output passes `maxBytes`,
 * and `hold`'s error as soon as the budget refuses more. A decompression
 * bomb so stops at whichever comes first, having cost no more memory than
 * what was held; one pass, its pieces joined once at the end.
 */
async function inflateHeld(
  body: Buffer,
  codec: Codec,
  maxBytes: number,
  hold: Hold,
): Promise<Buffer> {
  const pieces: Buffer[] = [];
  let size = 0;
  await pipeline(
    Readable.from([body]),
    codec.stream(maxBytes, hold),
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > maxBytes) {
          done(new RangeError('past the limit'));
          return;
        }
        try {
          hold(chunk.length);
          pieces.push(chunk);
          done();
        } catch (error) {
          done(error as Error);
        }
      },
    }),
  );
  return Buffer.concat(pieces, size);
}

let largeDecodes: Promise<unknown> = Promise.resolve();

/**
 * Large decodes run one at a time across the process: a legitimate one may
 * hold up to the envelope limit (100 MiB), so a few at once would otherwise
 * add up to gigabytes. Ordinary SDK bodies decode synchronously above and
 * never wait here.
 */
function oneLargeDecodeAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = largeDecodes.then(work, work);
  largeDecodes = run.catch(() => undefined);
  return run;
}

async function decodeOnce(
  body: Buffer,
  encoding: string,
  codec: Codec,
  maxBytes: number,
  hold: Hold,
): Promise<Buffer> {
  try {
    if (body.length <= SYNC_INPUT_LIMIT) {
      try {
        const decoded = codec.sync(body, {
          maxOutputLength: Math.min(maxBytes, SYNC_OUTPUT_LIMIT),
        });
        hold(decoded.length);
        return decoded;
      } catch (error) {
        if (!isTooLarge(error) || maxBytes <= SYNC_OUTPUT_LIMIT) throw error;
      }
    }
    return await oneLargeDecodeAtATime(() =>
      inflateHeld(body, codec, maxBytes, hold),
    );
  } catch (error) {
    throw decodeFailure(error, encoding, maxBytes);
  }
}

function unsupported(encoding: string): TransportError {
  return new TransportError(
    TransportErrorKind.UnsupportedMediaType,
    `Unsupported Content-Encoding "${encoding}"; supported: identity, ${SUPPORTED_ENCODINGS.join(', ')}.`,
  );
}

/** The encodings of a `Content-Encoding` header, first applied first. */
export function encodingsOf(contentEncoding: string | undefined): string[] {
  return (contentEncoding ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '' && e !== 'identity');
}

/** The codec of one encoding, given the body's first bytes. */
function codecOf(encoding: string, firstBytes: Buffer): Codec | undefined {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return GZIP;
    case 'deflate':
      return deflateCodec(firstBytes);
    case 'br':
      return BROTLI;
    case 'zstd':
      return ZSTD;
    default:
      return undefined;
  }
}

/**
 * A decoder stream for one encoding, given the body's first bytes; never
 * more than `maxBytes` from zstd, whose frames' windows `hold` is told of
 * (zlib's keep to their own small windows; the caller counts output).
 * Undefined for an unknown encoding.
 */
export function streamingDecoder(
  encoding: string,
  firstBytes: Buffer,
  maxBytes: number,
  hold: Hold,
): Transform | undefined {
  return codecOf(encoding, firstBytes)?.stream(maxBytes, hold);
}

/** Whether `encoding` is undone as it streams (gzip, deflate, br, zstd). */
export function decodesAsItStreams(encoding: string): boolean {
  return codecOf(encoding, Buffer.alloc(0)) !== undefined;
}

/**
 * A small body (as SDKs send: an event, sessions) decoded at once on the
 * event loop, cheaper than a stream, when its output is small too (at most
 * 1 MiB and `maxBytes`); undefined otherwise (to be streamed).
 */
export function decodeSmall(
  body: Buffer,
  encoding: string,
  maxBytes: number,
): Buffer | undefined {
  const codec = codecOf(encoding, body);
  if (!codec || body.length > SYNC_INPUT_LIMIT) return undefined;
  try {
    return codec.sync(body, {
      maxOutputLength: Math.min(maxBytes, SYNC_OUTPUT_LIMIT),
    });
  } catch (error) {
    if (error instanceof ZstdWasmMemoryError) throw zstdBusy();
    if (!isTooLarge(error)) throw corrupt(encoding);
    if (maxBytes <= SYNC_OUTPUT_LIMIT) throw tooLarge(maxBytes);
    return undefined;
  }
}

/**
 * Undoes `Content-Encoding` (none, empty, `identity`, gzip, deflate in both
 * wrappings, br, zstd; a list is undone last-applied first), never producing
 * more than `maxBytes`; `hold` is told the size of each decoded buffer (the
 * gateway's body budget, which may refuse it).
 */
export async function decodeBody(
  body: Buffer,
  contentEncoding: string | undefined,
  maxBytes: number,
  hold: Hold = () => undefined,
): Promise<Buffer> {
  const encodings = encodingsOf(contentEncoding);
  let decoded = body;
  for (const encoding of encodings.reverse()) {
    const codec = codecOf(encoding, decoded);
    if (!codec) throw unsupported(encoding);
    decoded = await decodeOnce(decoded, encoding, codec, maxBytes, hold);
  }
  if (decoded.length > maxBytes) throw tooLarge(maxBytes);
  return decoded;
}
