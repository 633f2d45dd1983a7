import { HttpStatus } from '@nestjs/common';

import { MarketplaceErrorCode } from './marketplace.errors';

/** Exhaustive: a new error code without a status does not compile. */
export const MARKETPLACE_ERROR_HTTP_STATUS: Record<
  MarketplaceErrorCode,
  HttpStatus
> = {
  [MarketplaceErrorCode.BadRequest]: HttpStatus.BAD_REQUEST,
  [MarketplaceErrorCode.JSONParseError]: HttpStatus.BAD_REQUEST,
  [MarketplaceErrorCode.CollectionNotFound]: HttpStatus.NOT_FOUND,
  [MarketplaceErrorCode.EntityNotFound]: HttpStatus.NOT_FOUND,
  [MarketplaceErrorCode.RequestEntityTooLarge]: HttpStatus.PAYLOAD_TOO_LARGE,
  [MarketplaceErrorCode.KinveyInternalErrorRetry]:
    HttpStatus.INTERNAL_SERVER_ERROR,
};
