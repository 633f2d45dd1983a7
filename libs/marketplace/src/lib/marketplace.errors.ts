import { DomainError } from '@quitanda/kernel';

/** Kinvey's error names, as SDKs match them. */
export enum MarketplaceErrorCode {
  BadRequest = 'BadRequest',
  IncompleteRequestBody = 'IncompleteRequestBody',
  InvalidQuerySyntax = 'InvalidQuerySyntax',
  JSONParseError = 'JSONParseError',
  ParameterValueOutOfRange = 'ParameterValueOutOfRange',
  FeatureUnavailable = 'FeatureUnavailable',
  ResultSetSizeExceeded = 'ResultSetSizeExceeded',
  InvalidCredentials = 'InvalidCredentials',
  InsufficientCredentials = 'InsufficientCredentials',
  AppNotFound = 'AppNotFound',
  CollectionNotFound = 'CollectionNotFound',
  EntityNotFound = 'EntityNotFound',
  UserNotFound = 'UserNotFound',
  BlobNotFound = 'BlobNotFound',
  UserAlreadyExists = 'UserAlreadyExists',
  DuplicateEntity = 'DuplicateEntity',
  RequestEntityTooLarge = 'RequestEntityTooLarge',
  TooManyRequests = 'TooManyRequests',
  KinveyInternalErrorRetry = 'KinveyInternalErrorRetry',
}

export class MarketplaceError extends DomainError<MarketplaceErrorCode> {
  readonly context = 'marketplace';

  constructor(
    code: MarketplaceErrorCode,
    description: string,
    readonly debug = '',
  ) {
    super(code, description);
  }
}
