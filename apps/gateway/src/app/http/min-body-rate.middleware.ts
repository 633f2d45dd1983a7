import { TransportError, TransportErrorKind } from '@quitanda/kernel';
import type { NextFunction, Request, Response } from 'express';

import type { ErrorAnswer } from './request-deadline.middleware';
import { onResponseDone } from './response-done';

/** The floor a request body's arrival must keep (Kestrel's model). */
export interface MinBodyRate {
  /** Average bytes per second once the grace period is over; 0: no floor. */
  readonly bytesPerSecond: number;
  /** Time a body may start slowly before the floor applies. */
  readonly graceMs: number;
}

/** How often the rate is looked at (at most). */
const CHECK_EVERY_MS = 1_000;

function tooSlow(rate: MinBodyRate): TransportError {
  return new TransportError(
    TransportErrorKind.RequestTimeout,
    `The request body arrived slower than ${rate.bytesPerSecond} bytes per second.`,
  );
}

function hasBody(req: Request): boolean {
  return (
    req.headers['transfer-encoding'] !== undefined ||
    Number(req.headers['content-length'] ?? 0) > 0
  );
}

/**
 * Cuts a request whose body trickles: once `graceMs` have passed, a body
 * averaging fewer than `bytesPerSecond` since it began gets 408 in its
 * context's format and its connection closed, long before the whole
 * request's timeout (a body at a byte every 2 s was read for 60 s). Only
 * the client's pace counts: while the handler leaves bytes unread in the
 * request (waiting for the database, for its turn to decode), the clock
 * starts again.
 */
export function minBodyRateMiddleware(rate: MinBodyRate, answer: ErrorAnswer) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (rate.bytesPerSecond === 0 || req.complete || !hasBody(req)) {
      next();
      return;
    }
    const socket = req.socket;
    let since = performance.now();
    let base = socket.bytesRead;
    const cut = () => {
      stop();
      // Closed once the answer is out: the rest of the body is not read.
      res.once('finish', () => socket.destroy());
      if (res.headersSent) socket.destroy();
      else {
        res.setHeader('Connection', 'close');
        answer(req, res, tooSlow(rate));
      }
    };
    const check = () => {
      const now = performance.now();
      // All of it came: what is left is the handler's to read.
      if (req.complete) {
        stop();
        return;
      }
      if (req.readableLength > 0) {
        since = now;
        base = socket.bytesRead;
        return;
      }
      const elapsed = now - since;
      const received = socket.bytesRead - base;
      if (
        elapsed >= rate.graceMs &&
        received < (rate.bytesPerSecond * elapsed) / 1000
      )
        cut();
    };
    const timer = setInterval(check, Math.min(CHECK_EVERY_MS, rate.graceMs));
    timer.unref();
    const stop = () => clearInterval(timer);
    req.once('end', stop);
    onResponseDone(res, stop);
    next();
  };
}
