import type { IncomingMessage } from 'node:http';

import { TransportError, TransportErrorKind } from '@quitanda/kernel';
import { json } from 'body-parser';
import type { NextFunction, Request, Response } from 'express';

import {
  holdParsedValues,
  holdParserBody,
  jsonValuesAtMost,
} from './body-budget';
import { noteBodyLimit } from './body-limit';
import { isJsonContentType } from './content-type';
import { unsafeRequestError } from './hostile-input';

export interface JsonBodyOptions {
  /** Largest accepted body, in bytes. */
  readonly limitBytes: number;
  /**
   * Refuse (415) a body whose Content-Type is not JSON. When false, any body
   * is parsed as JSON (clients that send `text/plain` or nothing).
   */
  readonly requireJsonContentType: boolean;
}

type Middleware = (req: Request, res: Response, next: NextFunction) => void;

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Whether a request says it carries a body (a length above 0, or chunked). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (
    req.headers['transfer-encoding'] !== undefined ||
    (length !== undefined && length !== '0')
  );
}

/**
 * Refuses a URL whose path or query carries a NUL (`%00`): it would reach
 * SQL as text, which PostgreSQL refuses. For routes that read no JSON body
 * (`jsonBody` does the same).
 */
export function safeUrl(): Middleware {
  return (req, _res, next) => next(unsafeRequestError(req));
}

/**
 * JSON body parsing for one context's routes, with its size limit, turning
 * body-parser's failures into `TransportError`s that the gateway renders in
 * that context's own error format. The one place where what a request
 * carries as text is checked before it can reach SQL: a NUL (`%00` in the
 * URL, `\u0000` in the body) gets the context's 400, and so does a body
 * nested deeper than `MAX_JSON_DEPTH`.
 */
export function jsonBody(options: JsonBodyOptions): Middleware {
  const parse = json({
    limit: options.limitBytes,
    strict: false,
    type: () => true,
    // Before the parse: what the body will weigh in the heap.
    verify: (req, _res, raw) => holdParsedValues(req, jsonValuesAtMost(raw)),
  });
  const url = safeUrl();
  return (req, res, next) =>
    url(req, res, (error?: unknown) => {
      if (error) next(error);
      else parseBody(req, res, next);
    });

  function parseBody(req: Request, res: Response, next: NextFunction): void {
    noteBodyLimit(req, options.limitBytes);
    if (!METHODS_WITH_BODY.has(req.method) || !hasBody(req)) {
      next();
      return;
    }
    if (
      options.requireJsonContentType &&
      !isJsonContentType(req.headers['content-type'])
    ) {
      next(
        new TransportError(
          TransportErrorKind.UnsupportedMediaType,
          'The request body must be JSON (Content-Type: application/json).',
        ),
      );
      return;
    }
    try {
      holdParserBody(req, options.limitBytes);
    } catch (error) {
      next(error);
      return;
    }
    parse(req, res, (error?: unknown) => {
      if (error) {
        next(translate(error));
        return;
      }
      next(unsafeRequestError(req));
    });
  }
}

function translate(error: unknown): TransportError {
  // The body budget's refusal, through body-parser.
  if (error instanceof TransportError) return error;
  const type = (error as { type?: string }).type;
  switch (type) {
    case 'entity.too.large':
      return new TransportError(
        TransportErrorKind.PayloadTooLarge,
        'The request body is larger than this endpoint accepts.',
      );
    case 'entity.parse.failed':
      return new TransportError(
        TransportErrorKind.MalformedBody,
        'The request body is not valid JSON.',
      );
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new TransportError(
        TransportErrorKind.UnsupportedMediaType,
        (error as Error).message,
      );
    case 'request.aborted':
    case 'request.size.invalid':
      return new TransportError(
        TransportErrorKind.MalformedBody,
        'The request body was cut short.',
      );
    default:
      return new TransportError(
        TransportErrorKind.MalformedBody,
        'The request body could not be read.',
      );
  }
}
