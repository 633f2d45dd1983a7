import { randomUUID } from 'node:crypto';

import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

import { onResponseDone } from '../http/response-done';

/** Query parameters that carry credentials (DSN keys, signed URLs, tokens). */
const SECRET_QUERY_PARAMS =
  /([?&](?:sentry_key|sentry_secret|token|access_token|private_token|signature|sig|key)=)[^&]*/gi;

/** Request ids we accept from a client or proxy: short and printable. */
const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Probed every few seconds; logging them would drown the log. */
const QUIET = /^\/health\/(live|ready)(\?|$)/;

/** The messages of the one line per request (a readable terminal shortens it). */
export const REQUEST_MESSAGES: ReadonlySet<string> = new Set([
  'request',
  'request failed',
]);

export function scrubUrl(url: string): string {
  return url.replace(SECRET_QUERY_PARAMS, '$1[REDACTED]');
}

/**
 * One JSON line per request, written when the response is over (sent, or
 * the client gone: status 499), plus the request id: taken from a sane incoming
 * `X-Request-Id` (so a proxy's id flows through), generated otherwise, and
 * returned in the same header.
 *
 * Only the method, path (credential query parameters redacted), status,
 * duration, size, client address and user agent are logged: headers and
 * bodies never are, so `Authorization`, `PRIVATE-TOKEN`, `X-Sentry-Auth`,
 * cookies and passwords cannot reach a log line.
 */
export function requestLoggingMiddleware(logger: Logger) {
  // The entry below holds only those fields, the URL already scrubbed, so
  // the logger's path redaction (which walks every object on every line,
  // about 40% of a line's cost) has nothing to find here.
  const requests = logger.child({}, { redact: { paths: [] } });
  return (req: Request, res: Response, next: NextFunction): void => {
    const incoming = req.headers['x-request-id'];
    const id =
      typeof incoming === 'string' && VALID_REQUEST_ID.test(incoming)
        ? incoming
        : randomUUID();
    (req as Request & { id: string }).id = id;
    res.setHeader('X-Request-Id', id);
    if (QUIET.test(req.url)) {
      next();
      return;
    }
    const started = process.hrtime.bigint();
    // Read now: once a connection closes early, its socket is gone.
    const ip = req.ip;
    onResponseDone(res, () => {
      const status = res.writableFinished ? res.statusCode : 499;
      const entry = {
        reqId: id,
        method: req.method,
        url: scrubUrl(req.originalUrl),
        status,
        ms: Number(process.hrtime.bigint() - started) / 1e6,
        bytes: Number(res.getHeader('Content-Length') ?? 0),
        ip,
        ua: req.headers['user-agent'],
      };
      if (status >= 500) requests.error(entry, 'request failed');
      else requests.info(entry, 'request');
    });
    next();
  };
}
