import { DomainError, TransportErrorKind } from '@quitanda/kernel';
import { TRANSPORT_ERROR_HTTP_STATUS } from '@quitanda/http';
import type {
  ErrorRenderContext,
  HttpErrorFormat,
  HttpErrorResponse,
  TransportError,
} from '@quitanda/kernel';

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
    const status = TRANSPORT_ERROR_HTTP_STATUS[kind];
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
