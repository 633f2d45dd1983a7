import { DomainError, TransportErrorKind } from '@quitanda/kernel';
import { TRANSPORT_ERROR_HTTP_STATUS } from '@quitanda/http';
import type {
  ErrorRenderContext,
  HttpErrorFormat,
  HttpErrorResponse,
  TransportError,
} from '@quitanda/kernel';

import { ERROR_TRACKING_ERROR_HTTP_STATUS } from '../common/error-tracking-error.http-map';
import {
  COLLECTOR_PATH_PREFIX,
  SENTRY_API_PREFIX,
} from '../common/error-tracking.constants';
import {
  ErrorTrackingError,
  ErrorTrackingErrorCode,
} from '../common/error-tracking.errors';
import { COLLECTOR_CORS_HEADERS } from '../http/cors';
import { GITLAB_JSON_TYPE } from '../http/gitlab-json.middleware';

import {
  SENTRY_NOT_FOUND,
  sentryDetail,
} from '../sourcemaps/sentry-api.errors';
import { webErrorPage } from '../web-ui/toolkit/web-error-page';
import { isWebPath } from '../web-ui/toolkit/web-paths';

/** Sentry's web API (`/api/0/`) as Express sends JSON elsewhere. */
const JSON_TYPE = 'application/json; charset=utf-8';

const REASON: Partial<Record<number, string>> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

interface Rendered {
  status: number;
  /** The client-facing text (GitLab's `message` or Sentry's `detail`). */
  text: string;
  headers: Record<string, string>;
}

function classify(
  error: DomainError | TransportError,
  requestId: string,
): Rendered {
  if (error instanceof ErrorTrackingError) {
    const headers: Record<string, string> = {};
    const retry = error.details['retryAfterSeconds'];
    if (
      error.code === ErrorTrackingErrorCode.RateLimited &&
      typeof retry === 'number'
    ) {
      headers['Retry-After'] = String(retry);
      const categories = error.details['categories'];
      headers['X-Sentry-Rate-Limits'] =
        `${retry}:${typeof categories === 'string' ? categories : ''}:key`;
    }
    return {
      status: ERROR_TRACKING_ERROR_HTTP_STATUS[error.code],
      text: error.message,
      headers,
    };
  }
  // Another context's domain error cannot come from these routes: a bug.
  const kind =
    error instanceof DomainError ? TransportErrorKind.Internal : error.kind;
  const status = TRANSPORT_ERROR_HTTP_STATUS[kind];
  const headers: Record<string, string> = {};
  if (!(error instanceof DomainError) && error.retryAfterSeconds !== undefined)
    headers['Retry-After'] = String(error.retryAfterSeconds);
  let text = error.message;
  if (kind === TransportErrorKind.Internal)
    text = `Internal Server Error (request id ${requestId})`;
  else if (
    kind === TransportErrorKind.InvalidRequest &&
    !(error instanceof DomainError) &&
    error.fieldErrors.length > 0
  )
    text = error.fieldErrors.map((f) => `${f.field} ${f.message}`).join(', ');
  return { status, text, headers };
}

/** GitLab's REST bodies for one error. */
function gitlabBody(
  error: DomainError | TransportError,
  rendered: Rendered,
): unknown {
  if (error instanceof ErrorTrackingError) {
    switch (error.code) {
      case ErrorTrackingErrorCode.InvalidParameter:
      case ErrorTrackingErrorCode.KeysetUnavailable:
        return { error: error.message };
      case ErrorTrackingErrorCode.ValidationFailed:
        return { message: error.details['fields'] };
      case ErrorTrackingErrorCode.InsufficientScope:
        return {
          error: 'insufficient_scope',
          error_description: error.message,
          scope: 'api',
        };
      default:
        return { message: error.message };
    }
  }
  const kind =
    error instanceof DomainError ? TransportErrorKind.Internal : error.kind;
  switch (kind) {
    case TransportErrorKind.InvalidRequest:
    case TransportErrorKind.MalformedBody:
      return { error: rendered.text };
    case TransportErrorKind.RouteNotFound:
      return { error: '404 Not Found' };
    default:
      return { message: `${rendered.status} ${REASON[rendered.status]}` };
  }
}

function isSentryApiPath(path: string): boolean {
  return path === SENTRY_API_PREFIX || path.startsWith(`${SENTRY_API_PREFIX}/`);
}

/** Sentry's `detail` texts under `/api/0/` (what sentry-cli prints). */
function sentryApiDetail(
  error: DomainError | TransportError,
  rendered: Rendered,
): string {
  if (error instanceof ErrorTrackingError) return sentryDetail(error);
  if (rendered.status === 404) return SENTRY_NOT_FOUND;
  return rendered.text;
}

/**
 * HTML error pages on the web UI's paths,
 * Sentry's `{"detail": ...}` on the part of its web API under `/api/0`,
 * GitLab's REST error bodies (`{"message": "404 Project Not Found"}`,
 * `{"error": "active is missing"}`) under `/api/v4`, and Sentry's
 * `{"detail": ...}` with CORS headers on the collector that SDKs talk to;
 * and the HTML page of a browser that opens a page nobody serves.
 */
export const errorTrackingHttpErrorFormat: HttpErrorFormat = {
  context: 'error-tracking',

  owns(path: string): boolean {
    return (
      path === '/api/v4' ||
      path.startsWith('/api/v4/') ||
      isSentryApiPath(path) ||
      isWebPath(path)
    );
  },

  render(
    error: DomainError | TransportError,
    { requestId, path }: ErrorRenderContext,
  ): HttpErrorResponse {
    const rendered = classify(error, requestId);
    if (isWebPath(path)) return webErrorPage(rendered.status, error, requestId);
    if (isSentryApiPath(path))
      return {
        status: rendered.status,
        contentType: JSON_TYPE,
        headers: rendered.headers,
        body: { detail: sentryApiDetail(error, rendered) },
      };
    if (path.startsWith(COLLECTOR_PATH_PREFIX)) {
      return {
        status: rendered.status,
        contentType: GITLAB_JSON_TYPE,
        headers: { ...COLLECTOR_CORS_HEADERS, ...rendered.headers },
        body: { detail: rendered.text },
      };
    }
    return {
      status: rendered.status,
      contentType: GITLAB_JSON_TYPE,
      headers: rendered.headers,
      body: gitlabBody(error, rendered),
    };
  },

  renderPage(
    error: DomainError | TransportError,
    { requestId }: ErrorRenderContext,
  ): HttpErrorResponse {
    return webErrorPage(classify(error, requestId).status, error, requestId);
  },
};
