import { HttpStatus } from '@nestjs/common';

import { MarketplaceErrorCode } from './marketplace.errors';

/** Kinvey's status of business logic failures (no HttpStatus names it). */
const BUSINESS_LOGIC_ERROR = 550 as HttpStatus;

/** Exhaustive: a new error code without a status does not compile. */
export const MARKETPLACE_ERROR_HTTP_STATUS: Record<
  MarketplaceErrorCode,
  HttpStatus
> = {
  [MarketplaceErrorCode.MissingConfiguration]: HttpStatus.FORBIDDEN,
  [MarketplaceErrorCode.BadRequest]: HttpStatus.BAD_REQUEST,
  [MarketplaceErrorCode.IncompleteRequestBody]: HttpStatus.BAD_REQUEST,
  [MarketplaceErrorCode.InvalidQuerySyntax]: HttpStatus.BAD_REQUEST,
  [MarketplaceErrorCode.JSONParseError]: HttpStatus.BAD_REQUEST,
  [MarketplaceErrorCode.ParameterValueOutOfRange]: HttpStatus.BAD_REQUEST,
  [MarketplaceErrorCode.FeatureUnavailable]: HttpStatus.BAD_REQUEST,
  [MarketplaceErrorCode.ResultSetSizeExceeded]: HttpStatus.BAD_REQUEST,
  [MarketplaceErrorCode.InvalidCredentials]: HttpStatus.UNAUTHORIZED,
  [MarketplaceErrorCode.InsufficientCredentials]: HttpStatus.UNAUTHORIZED,
  [MarketplaceErrorCode.AppNotFound]: HttpStatus.NOT_FOUND,
  [MarketplaceErrorCode.CollectionNotFound]: HttpStatus.NOT_FOUND,
  [MarketplaceErrorCode.EntityNotFound]: HttpStatus.NOT_FOUND,
  [MarketplaceErrorCode.UserNotFound]: HttpStatus.NOT_FOUND,
  [MarketplaceErrorCode.BlobNotFound]: HttpStatus.NOT_FOUND,
  [MarketplaceErrorCode.EndpointDoesNotExist]: HttpStatus.NOT_FOUND,
  [MarketplaceErrorCode.OrganizationNotFound]: HttpStatus.NOT_FOUND,
  [MarketplaceErrorCode.EnvironmentNotFound]: HttpStatus.NOT_FOUND,
  [MarketplaceErrorCode.ServiceNotFound]: HttpStatus.NOT_FOUND,
  [MarketplaceErrorCode.UserAlreadyExists]: HttpStatus.CONFLICT,
  [MarketplaceErrorCode.DuplicateEntity]: HttpStatus.CONFLICT,
  [MarketplaceErrorCode.RequestEntityTooLarge]: HttpStatus.PAYLOAD_TOO_LARGE,
  [MarketplaceErrorCode.TooManyRequests]: HttpStatus.TOO_MANY_REQUESTS,
  [MarketplaceErrorCode.RequestTimeout]: HttpStatus.REQUEST_TIMEOUT,
  [MarketplaceErrorCode.KinveyInternalErrorRetry]:
    HttpStatus.INTERNAL_SERVER_ERROR,
  [MarketplaceErrorCode.BLRuntimeError]: BUSINESS_LOGIC_ERROR,
  [MarketplaceErrorCode.BLTimeoutError]: BUSINESS_LOGIC_ERROR,
};
