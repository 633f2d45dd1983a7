import { holdParserBody, jsonBody, unsafeRequestError } from '@quitanda/http';
import { TransportError, TransportErrorKind } from '@quitanda/kernel';
import { urlencoded } from 'body-parser';
import type { NextFunction, Request, Response } from 'express';

import { API_BODY_LIMIT_BYTES } from '../common/error-tracking.constants';

type Middleware = (req: Request, res: Response, next: NextFunction) => void;

/**
 * Bodies of GitLab's REST API: JSON (whatever the Content-Type says, as
 * curl users often omit it) or form-encoded, as GitLab accepts both.
 */
export function apiBody(): Middleware {
  const json = jsonBody({
    limitBytes: API_BODY_LIMIT_BYTES,
    requireJsonContentType: false,
  });
  const form = urlencoded({ extended: false, limit: API_BODY_LIMIT_BYTES });
  return (req, res, next) => {
    const type = (req.headers['content-type'] ?? '')
      .split(';', 1)[0]
      ?.trim()
      .toLowerCase();
    if (type === 'application/x-www-form-urlencoded') {
      try {
        holdParserBody(req, API_BODY_LIMIT_BYTES);
      } catch (error) {
        next(error);
        return;
      }
      form(req, res, (error?: unknown) => {
        if (error instanceof TransportError) {
          next(error);
          return;
        }
        if (error) {
          next(
            new TransportError(
              TransportErrorKind.MalformedBody,
              'The form body could not be read.',
            ),
          );
          return;
        }
        next(unsafeRequestError(req));
      });
      return;
    }
    json(req, res, next);
  };
}
