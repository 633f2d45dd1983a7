import { DomainError } from '@quitanda/kernel';
import type { FieldError } from '@quitanda/kernel';

export enum EventsErrorCode {
  EventNotFound = 'event_not_found',
  ValidationFailed = 'validation_failed',
  PreconditionFailed = 'precondition_failed',
  WriteTokenRequired = 'write_token_required',
}

export class EventsError extends DomainError<EventsErrorCode> {
  readonly context = 'events';

  private constructor(
    code: EventsErrorCode,
    message: string,
    readonly fieldErrors: readonly FieldError[] = [],
  ) {
    super(code, message);
  }

  static notFound(id: string): EventsError {
    return new EventsError(
      EventsErrorCode.EventNotFound,
      `No event with id "${id}".`,
    );
  }

  static validation(fieldErrors: readonly FieldError[]): EventsError {
    return new EventsError(
      EventsErrorCode.ValidationFailed,
      'The request has invalid fields.',
      fieldErrors,
    );
  }

  static preconditionFailed(): EventsError {
    return new EventsError(
      EventsErrorCode.PreconditionFailed,
      'The event changed since the ETag given in If-Match.',
    );
  }

  static writeTokenRequired(): EventsError {
    return new EventsError(
      EventsErrorCode.WriteTokenRequired,
      'Writing events requires "Authorization: Bearer <token>".',
    );
  }
}
