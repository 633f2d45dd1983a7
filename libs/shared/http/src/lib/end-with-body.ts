import type { ServerResponse } from 'node:http';

/**
 * Ends a response with its whole body, declaring its length.
 *
 * Every writer that bypasses Express's `res.send` ends here, because the
 * request log takes a response's size from `Content-Length` rather than
 * counting bytes on every write.
 */
export function endWithBody(res: ServerResponse, body: string | Buffer): void {
  res.setHeader(
    'Content-Length',
    typeof body === 'string' ? Buffer.byteLength(body) : body.length,
  );
  res.end(body);
}
