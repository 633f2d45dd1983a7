import type { IncomingMessage } from 'node:http';

/** The id pino-http gave this request (also sent back as `X-Request-Id`). */
export function requestIdOf(request: IncomingMessage): string {
  const id = (request as IncomingMessage & { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : '';
}
