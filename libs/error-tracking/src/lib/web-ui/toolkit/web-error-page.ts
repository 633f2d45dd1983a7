import type {
  DomainError,
  HttpErrorResponse,
  TransportError,
} from '@quitanda/kernel';

import {
  ErrorTrackingError,
  ErrorTrackingErrorCode,
} from '../../common/error-tracking.errors';
import { errorPage } from './layout';
import { WEB_SECURITY_HEADERS } from './web-paths';

function texts(
  status: number,
  error: DomainError | TransportError,
): [string, string] {
  if (status === 404)
    return [
      'Page not found',
      "The page could not be found or you don't have permission to view it.",
    ];
  if (status === 403)
    return [
      'Access denied',
      error instanceof ErrorTrackingError &&
      error.code === ErrorTrackingErrorCode.Forbidden &&
      error.message.includes('CSRF')
        ? 'The form could not be verified: it was not sent from this site or your session changed. Nothing was changed. Go back, reload the page and try again.'
        : "You don't have the permission to do this in this project.",
    ];
  if (status === 503)
    return ['Temporarily unavailable', 'Please try again in a few seconds.'];
  if (status >= 500)
    return [
      'Something went wrong',
      'The error has been logged. Try again, or report the request id below.',
    ];
  return ['The request could not be processed', error.message];
}

/** The HTML error page of a UI path, with the UI's security headers. */
export function webErrorPage(
  status: number,
  error: DomainError | TransportError,
  requestId: string,
): HttpErrorResponse {
  const [heading, text] = texts(status, error);
  return {
    status,
    contentType: 'text/html; charset=utf-8',
    headers: WEB_SECURITY_HEADERS,
    body: errorPage(status, heading, text, requestId),
  };
}
