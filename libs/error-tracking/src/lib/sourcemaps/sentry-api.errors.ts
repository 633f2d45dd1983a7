import {
  ErrorTrackingError,
  ErrorTrackingErrorCode,
} from '../common/error-tracking.errors';

/** Sentry's 404 body text: unknown (or not maintained) projects, releases, routes. */
export const SENTRY_NOT_FOUND = 'The requested resource does not exist';

export function sentryNotFound(): ErrorTrackingError {
  return new ErrorTrackingError(
    ErrorTrackingErrorCode.NotFound,
    SENTRY_NOT_FOUND,
  );
}

/** Sentry's `detail` for an error of this context on `/api/0/`. */
export function sentryDetail(error: ErrorTrackingError): string {
  switch (error.code) {
    case ErrorTrackingErrorCode.Unauthorized:
      return 'Invalid token';
    case ErrorTrackingErrorCode.InsufficientScope:
    case ErrorTrackingErrorCode.Forbidden:
      return 'You do not have permission to perform this action.';
    case ErrorTrackingErrorCode.ProjectNotFound:
    case ErrorTrackingErrorCode.NotFound:
      return SENTRY_NOT_FOUND;
    default:
      return error.message;
  }
}
