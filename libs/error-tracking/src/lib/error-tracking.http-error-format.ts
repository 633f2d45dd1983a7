import { HttpStatus } from '@nestjs/common';
import { DomainError, TransportErrorKind } from '@quitanda/kernel';
import type {
  ErrorRenderContext,
  HttpErrorFormat,
  HttpErrorResponse,
  TransportError,
} from '@quitanda/kernel';

import { ERROR_TRACKING_ERROR_HTTP_STATUS } from './error-tracking-error.http-map';
import { COLLECTOR_PATH_PREFIX } from './error-tracking.constants';
import {
  ErrorTrackingError,
  ErrorTrackingErrorCode,
} from './error-tracking.errors';

const JSON_TYPE = 'application/json; charset=utf-8';

const TRANSPORT_STATUS: Record<TransportErrorKind, HttpStatus> = {
  [TransportErrorKind.MalformedBody]: HttpStatus.BAD_REQUEST,
  [TransportErrorKind.UnsupportedMediaType]: HttpStatus.UNSUPPORTED_MEDIA_TYPE,
  [TransportErrorKind.PayloadTooLarge]: HttpStatus.PAYLOAD_TOO_LARGE,
  [TransportErrorKind.RouteNotFound]: HttpStatus.NOT_FOUND,
  [TransportErrorKind.InvalidRequest]: HttpStatus.BAD_REQUEST,
  [TransportErrorKind.ServiceUnavailable]: HttpStatus.SERVICE_UNAVAILABLE,
  [TransportErrorKind.Internal]: HttpStatus.INTERNAL_SERVER_ERROR,
};

const REASON: Partial<Record<number, string>> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/**
 * GitLab's REST error bodies (`{"message": "404 Project Not Found"}`,
 * `{"error": "active is missing"}`) under `/api/v4`, and Sentry's
 * `{"detail": ...}` on the collector that SDKs talk to.
 */
export const errorTrackingHttpErrorFormat: HttpErrorFormat = {
  context: 'error-tracking',

  owns(path: string): boolean {
    return path === '/api/v4' || path.startsWith('/api/v4/');
  },

  render(
    error: DomainError | TransportError,
    { requestId, path }: ErrorRenderContext,
  ): HttpErrorResponse {
    let status: number;
    let message: string;
    if (error instanceof ErrorTrackingError) {
      status = ERROR_TRACKING_ERROR_HTTP_STATUS[error.code];
      message = error.message;
    } else {
      const kind =
        error instanceof DomainError ? TransportErrorKind.Internal : error.kind;
      status = TRANSPORT_STATUS[kind];
      message =
        kind === TransportErrorKind.Internal
          ? `Internal Server Error (request id ${requestId})`
          : error.message;
    }
    const retry =
      !(error instanceof DomainError) && error.retryAfterSeconds !== undefined
        ? { 'Retry-After': String(error.retryAfterSeconds) }
        : undefined;
    if (path.startsWith(COLLECTOR_PATH_PREFIX)) {
      return {
        status,
        contentType: JSON_TYPE,
        headers: { 'Access-Control-Allow-Origin': '*', ...retry },
        body: { detail: message },
      };
    }
    const body =
      error instanceof ErrorTrackingError &&
      error.code === ErrorTrackingErrorCode.InvalidParameter
        ? { error: message }
        : { message: `${status} ${REASON[status] ?? message}` };
    return { status, contentType: JSON_TYPE, headers: retry, body };
  },
};
