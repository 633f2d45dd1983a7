import { HttpStatus } from '@nestjs/common';
import {
  DomainError,
  TransportError,
  TransportErrorKind,
} from '@quitanda/kernel';
import { TRANSPORT_ERROR_HTTP_STATUS } from '@quitanda/http';
import type {
  ErrorRenderContext,
  FieldError,
  HttpErrorFormat,
  HttpErrorResponse,
} from '@quitanda/kernel';

import { EVENTS_ERROR_HTTP_STATUS } from './events-error.http-map';
import { EventsError, EventsErrorCode } from './events.errors';

const PROBLEM_JSON = 'application/problem+json; charset=utf-8';

interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: readonly FieldError[];
  request_id: string;
}

const DOMAIN_TITLES: Record<EventsErrorCode, string> = {
  [EventsErrorCode.EventNotFound]: 'Event not found',
  [EventsErrorCode.ValidationFailed]: 'Validation failed',
  [EventsErrorCode.PreconditionFailed]: 'Precondition failed',
  [EventsErrorCode.WriteTokenRequired]: 'Unauthorized',
};

const TRANSPORT: Record<TransportErrorKind, { title: string; slug: string }> = {
  [TransportErrorKind.MalformedBody]: {
    title: 'Malformed request body',
    slug: 'malformed-body',
  },
  [TransportErrorKind.UnsupportedMediaType]: {
    title: 'Unsupported media type',
    slug: 'unsupported-media-type',
  },
  [TransportErrorKind.PayloadTooLarge]: {
    title: 'Request body too large',
    slug: 'payload-too-large',
  },
  [TransportErrorKind.RouteNotFound]: {
    title: 'Not found',
    slug: 'not-found',
  },
  [TransportErrorKind.InvalidRequest]: {
    title: 'Validation failed',
    slug: 'validation-failed',
  },
  [TransportErrorKind.TooManyRequests]: {
    title: 'Too many requests',
    slug: 'too-many-requests',
  },
  [TransportErrorKind.RequestTimeout]: {
    title: 'Request timeout',
    slug: 'request-timeout',
  },
  [TransportErrorKind.ServiceUnavailable]: {
    title: 'Service unavailable',
    slug: 'service-unavailable',
  },
  [TransportErrorKind.Internal]: {
    title: 'Internal server error',
    slug: 'internal-error',
  },
};

function problem(
  status: HttpStatus,
  title: string,
  slug: string,
  detail: string,
  requestId: string,
  fieldErrors: readonly FieldError[],
  headers?: Record<string, string>,
): HttpErrorResponse {
  const body: Problem = {
    type: `urn:quitanda:problem:${slug}`,
    title,
    status,
    detail,
    request_id: requestId,
  };
  if (fieldErrors.length > 0) body.errors = fieldErrors;
  return { status, contentType: PROBLEM_JSON, headers, body };
}

function renderTransport(
  error: TransportError,
  requestId: string,
): HttpErrorResponse {
  const meta = TRANSPORT[error.kind];
  const detail =
    error.kind === TransportErrorKind.Internal
      ? `An unexpected error occurred. Quote request id ${requestId} when reporting it.`
      : error.message;
  return problem(
    TRANSPORT_ERROR_HTTP_STATUS[error.kind],
    meta.title,
    meta.slug,
    detail,
    requestId,
    error.fieldErrors,
    error.retryAfterSeconds !== undefined
      ? { 'Retry-After': String(error.retryAfterSeconds) }
      : undefined,
  );
}

/** RFC 9457 problem details, the events context's error format. */
export const eventsHttpErrorFormat: HttpErrorFormat = {
  context: 'events',

  owns(path: string): boolean {
    return path === '/events' || path.startsWith('/events/');
  },

  render(
    error: DomainError | TransportError,
    { requestId }: ErrorRenderContext,
  ): HttpErrorResponse {
    if (!(error instanceof DomainError))
      return renderTransport(error, requestId);
    if (!(error instanceof EventsError)) {
      // Another context's error cannot come from an events route: a bug.
      return renderTransport(
        new TransportError(TransportErrorKind.Internal, error.message),
        requestId,
      );
    }
    return problem(
      EVENTS_ERROR_HTTP_STATUS[error.code],
      DOMAIN_TITLES[error.code],
      error.code.replace(/_/g, '-'),
      error.message,
      requestId,
      error.fieldErrors,
      error.code === EventsErrorCode.WriteTokenRequired
        ? { 'WWW-Authenticate': 'Bearer realm="events"' }
        : undefined,
    );
  },
};
