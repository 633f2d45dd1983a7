import { DEADLINE } from '@quitanda/http';
import type { DeadlineControl } from '@quitanda/http';
import { TransportError, TransportErrorKind } from '@quitanda/kernel';
import type { NextFunction, Request, Response } from 'express';

import { onResponseDone } from './response-done';

/** Seconds a client is told to wait after a missed deadline. */
const RETRY_AFTER_SECONDS = 5;

function missedDeadline(): TransportError {
  return new TransportError(
    TransportErrorKind.ServiceUnavailable,
    'The request could not finish in time (the database is slow or unreachable); retry later.',
    [],
    RETRY_AFTER_SECONDS,
  );
}

/** Answers `error` in the format of the context that owns the request's path. */
export type ErrorAnswer = (req: Request, res: Response, error: unknown) => void;

/**
 * Every route's deadline (`DB_TIMEOUT_MS`): a request still without an
 * answer when it passes gets a 503 with `Retry-After` in its context's
 * format, however its waits add up (a pool wait, then statements). What the
 * handler does later is not sent (the reply finds the response ended; the
 * collector checks before it writes): for the collector, no success for an
 * event whose commit was not seen in time (a retry is deduplicated by its
 * event id).
 *
 * The client's own transfer is not the server's wait: the clock starts once
 * the request body has arrived (handlers that read it themselves: uploads,
 * the collector), it stands still while a handler does CPU-only work
 * (`pauseDeadline`/`restartDeadline`: the collector inflating a body), and
 * a response already being streamed is left alone.
 *
 * A middleware rather than a Nest interceptor: any global interceptor puts
 * every request through Nest's interceptor chain (an RxJS pipeline and
 * async-context bindings), which cost a third of the events API's
 * throughput.
 */
export function requestDeadlineMiddleware(
  deadlineMs: number,
  answer: ErrorAnswer,
) {
  return (req: Request, res: Response, next: NextFunction): void => {
    let timer: NodeJS.Timeout | undefined;
    let over = false;
    const expire = () => {
      if (!res.headersSent) answer(req, res, missedDeadline());
    };
    const arm = () => {
      if (!over) timer = setTimeout(expire, deadlineMs);
    };
    const control: DeadlineControl = {
      pause: () => clearTimeout(timer),
      restart: () => {
        clearTimeout(timer);
        arm();
      },
    };
    (req as Request & { [DEADLINE]?: DeadlineControl })[DEADLINE] = control;
    if (req.complete) arm();
    else req.once('end', arm);
    // Once the response is over nothing arms the clock again: not a body
    // that ends late, nor a handler that restarts it.
    onResponseDone(res, () => {
      over = true;
      clearTimeout(timer);
    });
    next();
  };
}
