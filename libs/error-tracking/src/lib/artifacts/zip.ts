import { crc32, inflateRawSync } from 'node:zlib';

/** Why an archive was refused (becomes the assemble `detail`). */
export class ZipError extends Error {}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;
const STORED = 0;
const DEFLATED = 8;

function endOfCentralDirectory(zip: Buffer): number {
  const lowest = Math.max(0, zip.length - EOCD_SIZE - MAX_COMMENT);
  for (let at = zip.length - EOCD_SIZE; at >= lowest; at--)
    if (zip.readUInt32LE(at) === EOCD_SIGNATURE) return at;
  throw new ZipError('not a zip archive');
}

function slice(zip: Buffer, start: number, length: number): Buffer {
  if (start < 0 || length < 0 || start + length > zip.length)
    throw new ZipError('truncated zip archive');
  return zip.subarray(start, start + length);
}

/**
 * The files of a zip archive (stored or deflated, what sentry-cli writes),
 * read through its central directory. Bomb-safe: inflation stops once the
 * files together pass `maxTotalBytes`; sizes and CRC-32s are checked.
 */
export function readZip(
  zip: Buffer,
  maxTotalBytes: number,
): Map<string, Buffer> {
  if (zip.length < EOCD_SIZE) throw new ZipError('not a zip archive');
  const eocd = endOfCentralDirectory(zip);
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const files = new Map<string, Buffer>();
  let total = 0;
  for (let i = 0; i < count; i++) {
    const header = slice(zip, at, 46);
    if (header.readUInt32LE(0) !== CENTRAL_SIGNATURE)
      throw new ZipError('corrupt zip central directory');
    const flags = header.readUInt16LE(8);
    const method = header.readUInt16LE(10);
    const crc = header.readUInt32LE(16);
    const compressedSize = header.readUInt32LE(20);
    const size = header.readUInt32LE(24);
    const nameLength = header.readUInt16LE(28);
    const extraLength = header.readUInt16LE(30);
    const commentLength = header.readUInt16LE(32);
    const localOffset = header.readUInt32LE(42);
    const name = slice(zip, at + 46, nameLength).toString('utf8');
    at += 46 + nameLength + extraLength + commentLength;
    if (flags & 0x1) throw new ZipError(`${name} is encrypted`);
    if (name.endsWith('/')) continue;
    if (total + size > maxTotalBytes)
      throw new ZipError(`the files are larger than ${maxTotalBytes} bytes`);

    const local = slice(zip, localOffset, 30);
    if (local.readUInt32LE(0) !== LOCAL_SIGNATURE)
      throw new ZipError(`corrupt zip entry ${name}`);
    const dataStart =
      localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
    const data = slice(zip, dataStart, compressedSize);
    let content: Buffer;
    if (method === STORED) content = Buffer.from(data);
    else if (method === DEFLATED) {
      try {
        // One byte over the declared size shows a lie without inflating a bomb.
        content = inflateRawSync(data, { maxOutputLength: size + 1 });
      } catch {
        throw new ZipError(`${name} cannot be inflated`);
      }
    } else throw new ZipError(`${name} uses unsupported compression ${method}`);
    if (content.length !== size || crc32(content) !== crc)
      throw new ZipError(`${name} does not match its size or checksum`);
    total += size;
    files.set(name, content);
  }
  return files;
}
