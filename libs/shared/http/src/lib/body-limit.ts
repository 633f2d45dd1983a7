import type { IncomingMessage } from 'node:http';

const LIMIT = Symbol('quitanda.body-limit');

type Noted = IncomingMessage & { [LIMIT]?: number };

/**
 * Notes the largest body the route reading `req` accepts, so that after an
 * early answer the gateway reads and drops no more of the rest than that
 * route would have read (see the gateway's unread-body drain).
 */
export function noteBodyLimit(req: IncomingMessage, bytes: number): void {
  (req as Noted)[LIMIT] = bytes;
}

/** What `noteBodyLimit` noted for `req`, if its route reads a body. */
export function bodyLimitOf(req: IncomingMessage): number | undefined {
  return (req as Noted)[LIMIT];
}
