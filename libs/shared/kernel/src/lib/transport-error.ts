import type { FieldError } from './field-error';

/**
 * Failures that happen around a context rather than inside it: the body could
 * not be parsed, was too large, the route does not exist, validation of a
 * request DTO failed, or something unexpected blew up. Each context renders
 * them in its own error format.
 */
export enum TransportErrorKind {
  MalformedBody = 'malformed_body',
  UnsupportedMediaType = 'unsupported_media_type',
  PayloadTooLarge = 'payload_too_large',
  RouteNotFound = 'route_not_found',
  InvalidRequest = 'invalid_request',
  /** The gateway is busy with other requests (their bodies): retry later. */
  TooManyRequests = 'too_many_requests',
  /** The body came slower than the gateway's minimum data rate. */
  RequestTimeout = 'request_timeout',
  ServiceUnavailable = 'service_unavailable',
  Internal = 'internal',
}

export class TransportError extends Error {
  constructor(
    readonly kind: TransportErrorKind,
    message: string,
    readonly fieldErrors: readonly FieldError[] = [],
    /** Seconds a client should wait before retrying (429, 503). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}
