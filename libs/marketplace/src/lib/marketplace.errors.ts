import { DomainError } from '@quitanda/kernel';

/** Kinvey's error names, as SDKs match them. */
export enum MarketplaceErrorCode {
  BadRequest = 'BadRequest',
  JSONParseError = 'JSONParseError',
  CollectionNotFound = 'CollectionNotFound',
  EntityNotFound = 'EntityNotFound',
  RequestEntityTooLarge = 'RequestEntityTooLarge',
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
