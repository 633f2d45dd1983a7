import type { IncomingMessage, ServerResponse } from 'node:http';

import { bodyLimitOf, hasBody } from '@quitanda/http';

const MIB = 1024 * 1024;

export interface UnreadBodyLimits {
  /**
   * The body limit assumed for a route that noted none (`noteBodyLimit`);
   * up to a route's limit plus 10% (at least 1 MiB more) of an unread body
   * is read and dropped.
   */
  readonly defaultLimitBytes: number;
  /**
   * How long the rest may take to arrive: the time a client has to send a
   * whole request, as slow links need for a large body.
   */
  readonly timeoutMs: number;
}

/**
 * Reads and drops what is left of `req`'s body, then lets the connection
 * carry on; past its bound or `timeoutMs` the connection is closed.
 */
function drain(req: IncomingMessage, limits: UnreadBodyLimits): void {
  const limit = bodyLimitOf(req) ?? limits.defaultLimitBytes;
  // Small limits get a little room too: a client that writes a body of a
  // few hundred KiB before it reads still hears the answer.
  const maxBytes = Math.ceil(Math.max(limit * 1.1, limit + MIB));
  let dropped = 0;
  const close = () => {
    stop();
    req.socket.destroy();
  };
  const timer = setTimeout(close, limits.timeoutMs);
  timer.unref();
  const onData = (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > maxBytes) close();
  };
  function stop() {
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', stop);
    req.off('close', stop);
  }
  req.on('data', onData);
  req.once('end', stop);
  req.once('close', stop);
  req.resume();
}

/**
 * An answer sent before its request's body was read (401, 403, 413, 429)
 * must reach a client that writes its whole body before it reads: closing
 * at once would reset the connection under the unread bytes, and a reader
 * that stopped (a limit, the body budget) leaves the body paused, the
 * client blocked writing. So once such a response is sent, the rest of the
 * body is read and dropped (no memory kept), within bounds: at most the
 * route's body limit plus 10% and `timeoutMs` (the request timeout),
 * after which the connection is closed.
 */
export function unreadBodyDrainMiddleware(
  limits: UnreadBodyLimits,
): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  return (req, res, next) => {
    // Before `finish`: there Node starts reading and dropping, without any
    // bound, a body that no one began to read (an answer to its declared
    // length), unless a reader is already attached.
    if (hasBody(req))
      res.once('prefinish', () => {
        if (!req.complete) drain(req, limits);
      });
    next();
  };
}
