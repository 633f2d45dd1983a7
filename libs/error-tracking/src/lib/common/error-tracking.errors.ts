import { DomainError } from '@quitanda/kernel';

export enum ErrorTrackingErrorCode {
  Unauthorized = 'unauthorized',
  Forbidden = 'forbidden',
  InsufficientScope = 'insufficient_scope',
  ProjectNotFound = 'project_not_found',
  NotFound = 'not_found',
  Conflict = 'conflict',
  InvalidParameter = 'invalid_parameter',
  BadRequest = 'bad_request',
  ValidationFailed = 'validation_failed',
  RateLimited = 'rate_limited',
  KeysetUnavailable = 'keyset_unavailable',
  Unprocessable = 'unprocessable',
}

/**
 * The error-tracking context's errors. `message` is the exact text the
 * client sees: GitLab's (`404 Project Not Found`, `active is missing`) on
 * the REST API, Sentry's `detail` on the collector.
 */
export class ErrorTrackingError extends DomainError<ErrorTrackingErrorCode> {
  readonly context = 'error-tracking';

  constructor(
    code: ErrorTrackingErrorCode,
    message: string,
    details: Readonly<Record<string, unknown>> = {},
    /** What a person reads instead of the wire text, where that differs. */
    private readonly plain?: string,
  ) {
    super(code, message, details);
  }

  override get plainMessage(): string {
    return this.plain ?? this.message;
  }

  static unauthorized(message = '401 Unauthorized'): ErrorTrackingError {
    return new ErrorTrackingError(ErrorTrackingErrorCode.Unauthorized, message);
  }

  static forbidden(message = '403 Forbidden'): ErrorTrackingError {
    return new ErrorTrackingError(ErrorTrackingErrorCode.Forbidden, message);
  }

  /** A `read_api` token on a write (GitLab's OAuth-style body). */
  static insufficientScope(): ErrorTrackingError {
    return new ErrorTrackingError(
      ErrorTrackingErrorCode.InsufficientScope,
      'The request requires higher privileges than provided by the access token.',
    );
  }

  /** Also what a non-member sees: existence is not revealed. */
  static projectNotFound(): ErrorTrackingError {
    return new ErrorTrackingError(
      ErrorTrackingErrorCode.ProjectNotFound,
      '404 Project Not Found',
    );
  }

  /**
   * `404 <Resource> Not Found`, or GitLab's bare `404 Not found`; `plain`
   * says which one in plain words (`No user named ana.`).
   */
  static notFound(resource?: string, plain?: string): ErrorTrackingError {
    return new ErrorTrackingError(
      ErrorTrackingErrorCode.NotFound,
      resource ? `404 ${resource} Not Found` : '404 Not found',
      {},
      plain ?? (resource ? `No such ${resource.toLowerCase()}.` : 'Not found.'),
    );
  }

  static conflict(message: string): ErrorTrackingError {
    return new ErrorTrackingError(ErrorTrackingErrorCode.Conflict, message);
  }

  /** Grape's parameter errors: `active is missing`, `active is invalid`. */
  static invalidParameter(message: string): ErrorTrackingError {
    return new ErrorTrackingError(
      ErrorTrackingErrorCode.InvalidParameter,
      message,
    );
  }

  static badRequest(message: string): ErrorTrackingError {
    return new ErrorTrackingError(ErrorTrackingErrorCode.BadRequest, message);
  }

  /** GitLab's model validation: `{"message": {"path": ["has already been taken"]}}`. */
  static validation(fields: Record<string, string[]>): ErrorTrackingError {
    return new ErrorTrackingError(
      ErrorTrackingErrorCode.ValidationFailed,
      Object.entries(fields)
        .map(([field, messages]) => `${field} ${messages.join(', ')}`)
        .join('; '),
      { fields },
    );
  }

  /** GitLab's 405 for `pagination=keyset` on an order it cannot page by. */
  static keysetUnavailable(): ErrorTrackingError {
    return new ErrorTrackingError(
      ErrorTrackingErrorCode.KeysetUnavailable,
      'Keyset pagination is not yet available for this type of request',
    );
  }

  /** GitLab's 422 (a hook test that the receiver did not accept). */
  static unprocessable(message: string): ErrorTrackingError {
    return new ErrorTrackingError(
      ErrorTrackingErrorCode.Unprocessable,
      message,
    );
  }

  /**
   * Sentry's 429: `Retry-After` and `X-Sentry-Rate-Limits:
   * <s>:<categories>:key` (no categories: all of them).
   */
  static rateLimited(
    retryAfterSeconds: number,
    categories: readonly string[] = [],
  ): ErrorTrackingError {
    return new ErrorTrackingError(
      ErrorTrackingErrorCode.RateLimited,
      'Rate limit of this client key exceeded; retry later.',
      { retryAfterSeconds, categories: categories.join(';') },
    );
  }
}
