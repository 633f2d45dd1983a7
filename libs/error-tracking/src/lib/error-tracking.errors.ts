import { DomainError } from '@quitanda/kernel';

export enum ErrorTrackingErrorCode {
  Unauthorized = 'unauthorized',
  Forbidden = 'forbidden',
  ProjectNotFound = 'project_not_found',
  NotFound = 'not_found',
  InvalidParameter = 'invalid_parameter',
}

export class ErrorTrackingError extends DomainError<ErrorTrackingErrorCode> {
  readonly context = 'error-tracking';

  constructor(code: ErrorTrackingErrorCode, message: string) {
    super(code, message);
  }
}
