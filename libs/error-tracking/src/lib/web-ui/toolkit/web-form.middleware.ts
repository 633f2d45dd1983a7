import { holdParserBody, unsafeRequestError } from '@quitanda/http';
import { TransportError, TransportErrorKind } from '@quitanda/kernel';
import { urlencoded } from 'body-parser';
import type { NextFunction, Request, Response } from 'express';

/** Largest form the pages send (a project name, a few flags). */
const FORM_LIMIT_BYTES = 16 * 1024;

/**
 * The pages' form bodies (`application/x-www-form-urlencoded` only; any
 * other body is left unread, so its CSRF check fails).
 */
export function webForm(): (
  req: Request,
  res: Response,
  next: NextFunction,
) => void {
  const parse = urlencoded({
    extended: false,
    limit: FORM_LIMIT_BYTES,
    parameterLimit: 50,
  });
  return (req, res, next) => {
    try {
      holdParserBody(req, FORM_LIMIT_BYTES);
    } catch (error) {
      next(error);
      return;
    }
    parse(req, res, (error?: unknown) => {
      if (!error) {
        next(unsafeRequestError(req));
        return;
      }
      if (error instanceof TransportError) {
        next(error);
        return;
      }
      const tooLarge =
        typeof error === 'object' &&
        (error as { status?: number }).status === 413;
      next(
        new TransportError(
          tooLarge
            ? TransportErrorKind.PayloadTooLarge
            : TransportErrorKind.MalformedBody,
          tooLarge
            ? 'The form is too large.'
            : 'The form body could not be read.',
        ),
      );
    });
  };
}
