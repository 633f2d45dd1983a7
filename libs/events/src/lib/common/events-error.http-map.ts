import { HttpStatus } from '@nestjs/common';

import { EventsErrorCode } from './events.errors';

/** Exhaustive: a new error code without a status does not compile. */
export const EVENTS_ERROR_HTTP_STATUS: Record<EventsErrorCode, HttpStatus> = {
  [EventsErrorCode.EventNotFound]: HttpStatus.NOT_FOUND,
  [EventsErrorCode.ValidationFailed]: HttpStatus.BAD_REQUEST,
  [EventsErrorCode.PreconditionFailed]: HttpStatus.PRECONDITION_FAILED,
  [EventsErrorCode.WriteTokenRequired]: HttpStatus.UNAUTHORIZED,
};
