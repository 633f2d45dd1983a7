import {
  Catch,
  HttpException,
  HttpStatus,
  Inject,
  Logger,
} from '@nestjs/common';
import type { ArgumentsHost, ExceptionFilter } from '@nestjs/common';
import { isConnectionFailure } from '@quitanda/database';
import { endWithBody, requestIdOf } from '@quitanda/http';
import {
  DomainError,
  TransportError,
  TransportErrorKind,
} from '@quitanda/kernel';
import type { HttpErrorFormat, HttpErrorResponse } from '@quitanda/kernel';
import type { Request, Response } from 'express';

import { isPageNavigation } from './page-navigation';
import { platformErrorFormat } from './platform-error-format';

export const HTTP_ERROR_FORMATS = 'gateway:http-error-formats';

const FROM_STATUS: Partial<Record<number, TransportErrorKind>> = {
  [HttpStatus.BAD_REQUEST]: TransportErrorKind.MalformedBody,
  [HttpStatus.NOT_FOUND]: TransportErrorKind.RouteNotFound,
  [HttpStatus.METHOD_NOT_ALLOWED]: TransportErrorKind.RouteNotFound,
  [HttpStatus.PAYLOAD_TOO_LARGE]: TransportErrorKind.PayloadTooLarge,
  [HttpStatus.UNSUPPORTED_MEDIA_TYPE]: TransportErrorKind.UnsupportedMediaType,
  [HttpStatus.SERVICE_UNAVAILABLE]: TransportErrorKind.ServiceUnavailable,
};

/** Seconds a client should wait when the database is unreachable. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * The gateway's single exception filter: every error of every route ends
 * here and leaves in the error format of the context that owns the route.
 * Unexpected errors are logged with their stack and answered with a bare 500
 * carrying the request id.
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrorFilter');

  constructor(
    @Inject(HTTP_ERROR_FORMATS)
    private readonly formats: readonly HttpErrorFormat[],
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const error = this.classify(exception);
    const requestId = requestIdOf(req);

    if (
      error instanceof TransportError &&
      error.kind === TransportErrorKind.Internal
    ) {
      this.logger.error(
        `Unhandled error in ${req.method} ${req.path} (request ${requestId})`,
        exception instanceof Error ? exception.stack : String(exception),
      );
    }
    if (res.headersSent) {
      // Nothing sensible can be sent any more; cut the connection so the
      // client sees a failure rather than a truncated success.
      res.destroy();
      return;
    }

    const rendered = this.render(error, req, requestId);
    res.status(rendered.status);
    for (const [name, value] of Object.entries(rendered.headers ?? {})) {
      res.setHeader(name, value);
    }
    const text =
      typeof rendered.body === 'string'
        ? rendered.body
        : JSON.stringify(rendered.body);
    res.setHeader('Content-Type', rendered.contentType);
    endWithBody(res, text);
  }

  private render(
    error: DomainError | TransportError,
    req: Request,
    requestId: string,
  ): HttpErrorResponse {
    const context = { requestId, path: req.path };
    const format = this.formatFor(error, req.path);
    if (
      format === platformErrorFormat &&
      error instanceof TransportError &&
      error.kind === TransportErrorKind.RouteNotFound &&
      isPageNavigation(req)
    ) {
      // A mistyped link in a browser: the web UI's 404 page, not JSON.
      const pages = this.formats.find((candidate) => candidate.renderPage);
      if (pages?.renderPage) return pages.renderPage(error, context);
    }
    return format.render(error, context);
  }

  private formatFor(
    error: DomainError | TransportError,
    path: string,
  ): HttpErrorFormat {
    if (error instanceof DomainError) {
      const owner = this.formats.find(
        (format) => format.context === error.context,
      );
      if (owner) return owner;
    }
    return (
      this.formats.find((format) => format.owns(path)) ?? platformErrorFormat
    );
  }

  private classify(exception: unknown): DomainError | TransportError {
    if (
      exception instanceof DomainError ||
      exception instanceof TransportError
    ) {
      return exception;
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const kind =
        FROM_STATUS[status] ??
        (status < 500
          ? TransportErrorKind.InvalidRequest
          : TransportErrorKind.Internal);
      const message =
        kind === TransportErrorKind.RouteNotFound
          ? 'No such resource or route.'
          : exception.message;
      return new TransportError(kind, message);
    }
    if (isConnectionFailure(exception)) {
      return new TransportError(
        TransportErrorKind.ServiceUnavailable,
        'The database is unavailable; retry later.',
        [],
        DATABASE_RETRY_AFTER_SECONDS,
      );
    }
    return new TransportError(
      TransportErrorKind.Internal,
      exception instanceof Error ? exception.message : String(exception),
    );
  }
}
