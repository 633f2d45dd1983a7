import { TransportError, TransportErrorKind } from '@quitanda/kernel';
import { json } from 'body-parser';
import type { NextFunction, Request, Response } from 'express';

import { isJsonContentType } from './content-type';

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

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return (
    req.headers['transfer-encoding'] !== undefined ||
    (length !== undefined && length !== '0')
  );
}

/**
 * JSON body parsing for one context's routes, with its size limit, turning
 * body-parser's failures into `TransportError`s that the gateway renders in
 * that context's own error format.
 */
export function jsonBody(options: JsonBodyOptions): Middleware {
  const parse = json({
    limit: options.limitBytes,
    strict: false,
    type: () => true,
  });
  return (req, res, next) => {
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
    parse(req, res, (error?: unknown) =>
      next(error ? translate(error) : undefined),
    );
  };
}

function translate(error: unknown): TransportError {
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
