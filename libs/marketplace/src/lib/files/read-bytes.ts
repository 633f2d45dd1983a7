import type { Readable } from 'node:stream';
import { MarketplaceError } from '../marketplace.errors';

/** The request body as bytes, refusing (413) more than `limit`. */
export async function readBytes(
  stream: Readable,
  limit: number,
): Promise<Buffer> {
  const parts: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buffer = chunk as Buffer;
    total += buffer.length;
    if (total > limit) {
      stream.resume();
      throw MarketplaceError.tooLarge(`more than ${limit} bytes`);
    }
    parts.push(buffer);
  }
  return Buffer.concat(parts);
}
