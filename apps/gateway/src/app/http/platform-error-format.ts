import { HttpStatus } from '@nestjs/common';
import { DomainError, TransportErrorKind } from '@quitanda/kernel';
import type {
  ErrorRenderContext,
  HttpErrorFormat,
  HttpErrorResponse,
  TransportError,
} from '@quitanda/kernel';

const STATUS: Record<TransportErrorKind, HttpStatus> = {
  [TransportErrorKind.MalformedBody]: HttpStatus.BAD_REQUEST,
  [TransportErrorKind.UnsupportedMediaType]: HttpStatus.UNSUPPORTED_MEDIA_TYPE,
  [TransportErrorKind.PayloadTooLarge]: HttpStatus.PAYLOAD_TOO_LARGE,
  [TransportErrorKind.RouteNotFound]: HttpStatus.NOT_FOUND,
  [TransportErrorKind.InvalidRequest]: HttpStatus.BAD_REQUEST,
  [TransportErrorKind.ServiceUnavailable]: HttpStatus.SERVICE_UNAVAILABLE,
  [TransportErrorKind.Internal]: HttpStatus.INTERNAL_SERVER_ERROR,
};

/**
 * Errors of paths no context owns (`/health`, `/metrics`, unknown paths):
 * `{statusCode, error, message, request_id}`, Nest's default shape.
 */
export const platformErrorFormat: HttpErrorFormat = {
  context: 'platform',
  owns: () => true,
  render(
    error: DomainError | TransportError,
    { requestId }: ErrorRenderContext,
  ): HttpErrorResponse {
    const kind =
      error instanceof DomainError ? TransportErrorKind.Internal : error.kind;
    const status = STATUS[kind];
    const message =
      kind === TransportErrorKind.Internal
        ? `An unexpected error occurred. Quote request id ${requestId} when reporting it.`
        : error.message;
    const retryAfter =
      error instanceof DomainError ? undefined : error.retryAfterSeconds;
    return {
      status,
      contentType: 'application/json; charset=utf-8',
      headers:
        retryAfter === undefined
          ? undefined
          : { 'Retry-After': String(retryAfter) },
      body: {
        statusCode: status,
        error: kind,
        message,
        request_id: requestId,
      },
    };
  },
};
