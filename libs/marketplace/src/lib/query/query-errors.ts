import { MarketplaceError, MarketplaceErrorCode } from '../marketplace.errors';

export function invalidQuery(debug: string): MarketplaceError {
  return new MarketplaceError(
    MarketplaceErrorCode.InvalidQuerySyntax,
    'The query is not valid. Please check its syntax.',
    debug,
  );
}

export function featureUnavailable(debug: string): MarketplaceError {
  return new MarketplaceError(
    MarketplaceErrorCode.FeatureUnavailable,
    'Requested functionality is unavailable in this API version.',
    debug,
  );
}

export function badRequest(debug: string): MarketplaceError {
  return new MarketplaceError(
    MarketplaceErrorCode.BadRequest,
    'The request is invalid.',
    debug,
  );
}

export function isPlainObject(
  value: unknown,
): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
