import { HttpStatus } from '@nestjs/common';

import { ErrorTrackingErrorCode } from './error-tracking.errors';

/** Exhaustive: a new error code without a status does not compile. */
export const ERROR_TRACKING_ERROR_HTTP_STATUS: Record<
  ErrorTrackingErrorCode,
  HttpStatus
> = {
  [ErrorTrackingErrorCode.Unauthorized]: HttpStatus.UNAUTHORIZED,
  [ErrorTrackingErrorCode.Forbidden]: HttpStatus.FORBIDDEN,
  [ErrorTrackingErrorCode.InsufficientScope]: HttpStatus.FORBIDDEN,
  [ErrorTrackingErrorCode.ProjectNotFound]: HttpStatus.NOT_FOUND,
  [ErrorTrackingErrorCode.NotFound]: HttpStatus.NOT_FOUND,
  [ErrorTrackingErrorCode.Conflict]: HttpStatus.CONFLICT,
  [ErrorTrackingErrorCode.InvalidParameter]: HttpStatus.BAD_REQUEST,
  [ErrorTrackingErrorCode.BadRequest]: HttpStatus.BAD_REQUEST,
  [ErrorTrackingErrorCode.ValidationFailed]: HttpStatus.BAD_REQUEST,
  [ErrorTrackingErrorCode.RateLimited]: HttpStatus.TOO_MANY_REQUESTS,
  [ErrorTrackingErrorCode.KeysetUnavailable]: HttpStatus.METHOD_NOT_ALLOWED,
  [ErrorTrackingErrorCode.Unprocessable]: HttpStatus.UNPROCESSABLE_ENTITY,
};
