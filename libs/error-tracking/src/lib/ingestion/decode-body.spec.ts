import { createHash } from 'node:crypto';
import {
  brotliCompressSync,
  deflateRawSync,
  deflateSync,
  gzipSync,
} from 'node:zlib';

import { TransportErrorKind } from '@quitanda/kernel';
import { loadZstdFixture, zstdRawFrame } from '@quitanda/testing';

import { decodeBody } from './decode-body';

const sha256 = (bytes: Buffer) =>
  createHash('sha256').update(bytes).digest('hex');

const payload = Buffer.from('{"hello":"world"}\n'.repeat(50));
/** `{"event_id":…}\n{"type":"event"}\n{"message":"zstd encoded","level":"info"}\n`, zstd CLI. */
const ZSTD = Buffer.from(
  'KLUv/QRYvQIAAoUSGnBpdeAqFCm5ar0jywEAMAhQ7f9/zHf6fz3UZ9qptqxmj2c2vF+X2ouFL2H1C+i9G9Q/IKDlmVbfRECCAKBhFiVBDqt3DWB7vGUDADQF0GrwDTKdAMCeAg==',
  'base64',
);

describe('decodeBody', () => {
  it.each([
    [undefined, payload],
    ['', payload],
    ['identity', payload],
    ['gzip', gzipSync(payload)],
    ['GZIP', gzipSync(payload)],
    ['deflate', deflateSync(payload)],
    ['deflate', deflateRawSync(payload)],
    ['br', brotliCompressSync(payload)],
    ['gzip, br', brotliCompressSync(gzipSync(payload))],
  ])('undoes %p', async (encoding, body) => {
    await expect(decodeBody(body, encoding, 1 << 20)).resolves.toEqual(payload);
  });

  it('decodes zstd', async () => {
    const decoded = await decodeBody(ZSTD, 'zstd', 1 << 20);
    expect(decoded.toString()).toContain('"message":"zstd encoded"');
  });

  it('inflates a large body off the event loop, whole, once it is known to fit', async () => {
    // Over the synchronous 8 MiB output: counted first, then inflated.
    const large = Buffer.alloc(12 << 20, '{"a":1}\n');
    const compressed = gzipSync(large);
    const decoded = await decodeBody(compressed, 'gzip', 100 << 20);
    expect(decoded.equals(large)).toBe(true);
    // A bomb past a large limit: 413, and truncated or corrupt input: 400.
    await expect(
      decodeBody(gzipSync(Buffer.alloc(24 << 20)), 'gzip', 16 << 20),
    ).rejects.toMatchObject({ kind: TransportErrorKind.PayloadTooLarge });
    await expect(
      decodeBody(
        compressed.subarray(0, compressed.length - 9),
        'gzip',
        100 << 20,
      ),
    ).rejects.toMatchObject({ kind: TransportErrorKind.MalformedBody });
  });

  it('stops at the limit (bombs) with 413, and refuses unknown encodings with 415', async () => {
    const bomb = gzipSync(Buffer.alloc(64 << 20));
    await expect(decodeBody(bomb, 'gzip', 1 << 20)).rejects.toMatchObject({
      kind: TransportErrorKind.PayloadTooLarge,
    });
    await expect(decodeBody(payload, 'identity', 10)).rejects.toMatchObject({
      kind: TransportErrorKind.PayloadTooLarge,
    });
    await expect(decodeBody(payload, 'lzma', 1 << 20)).rejects.toMatchObject({
      kind: TransportErrorKind.UnsupportedMediaType,
    });
    await expect(
      decodeBody(Buffer.from('nope'), 'br', 1 << 20),
    ).rejects.toMatchObject({
      kind: TransportErrorKind.MalformedBody,
    });
  });

  it('decodes a large zstd body as a stream, one block at a time, and answers its limits 413 and corrupt data 400', async () => {
    const attachment = loadZstdFixture('attachment-40m.zst');
    let held = 0;
    const decoded = await decodeBody(
      attachment.compressed,
      'zstd',
      100 << 20,
      (bytes) => (held += bytes),
    );
    expect(sha256(decoded)).toBe(attachment.sha256);
    // The output, and the 2 MiB window the frame declares.
    expect(held).toBe(attachment.bytes + (2 << 20));
    await expect(
      decodeBody(attachment.compressed, 'zstd', 16 << 20),
    ).rejects.toMatchObject({ kind: TransportErrorKind.PayloadTooLarge });
    // A 2 GiB window, refused before it is allocated.
    const window = zstdRawFrame(Buffer.from('x'), { windowLog: 31 });
    await expect(decodeBody(window, 'zstd', 1 << 20)).rejects.toMatchObject({
      kind: TransportErrorKind.PayloadTooLarge,
    });
    await expect(
      decodeBody(Buffer.from('not zstd'), 'zstd', 1 << 20),
    ).rejects.toMatchObject({ kind: TransportErrorKind.MalformedBody });
  });
});
