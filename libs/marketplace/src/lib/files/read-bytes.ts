import type { IncomingMessage } from 'node:http';

import { holdBodyBytes } from '@quitanda/http';

import { MarketplaceError } from '../common/marketplace.errors';

/**
 * The request body as bytes, refusing (413) more than `limit`; the bytes
 * count against the gateway's body budget as they arrive (429 past it).
 * The route notes its own body limit (`noteBodyLimit`), before its checks.
 */
export async function readBytes(
  stream: IncomingMessage,
  limit: number,
): Promise<Buffer> {
  const parts: Buffer[] = [];
  let total = 0;
  try {
    // Left early, the request stays open: the refusal is still heard.
    for await (const chunk of stream.iterator({ destroyOnReturn: false })) {
      const buffer = chunk as Buffer;
      total += buffer.length;
      if (total > limit)
        throw MarketplaceError.tooLarge(`more than ${limit} bytes`);
      holdBodyBytes(stream, buffer.length);
      parts.push(buffer);
    }
  } catch (error) {
    stream.resume();
    throw error;
  }
  return Buffer.concat(parts);
}
