import { DomainError, TransportErrorKind } from '@quitanda/kernel';
import type {
  ErrorRenderContext,
  HttpErrorFormat,
  HttpErrorResponse,
  TransportError,
} from '@quitanda/kernel';

import { MARKETPLACE_ERROR_HTTP_STATUS } from './marketplace-error.http-map';
import { MarketplaceError, MarketplaceErrorCode } from './marketplace.errors';

const JSON_TYPE = 'application/json; charset=utf-8';
const PREFIXES = [
  '/appdata/',
  '/user/',
  '/blob/',
  '/rpc/',
  '/roles/',
  '/group/',
  '/manage/',
];
/** The management API: kinvey-cli reads `code` where the SDKs read `error`. */
const MANAGE_PREFIX = '/manage/';

const TRANSPORT: Record<TransportErrorKind, MarketplaceErrorCode> = {
  [TransportErrorKind.MalformedBody]: MarketplaceErrorCode.JSONParseError,
  [TransportErrorKind.UnsupportedMediaType]: MarketplaceErrorCode.BadRequest,
  [TransportErrorKind.PayloadTooLarge]:
    MarketplaceErrorCode.RequestEntityTooLarge,
  [TransportErrorKind.RouteNotFound]: MarketplaceErrorCode.EntityNotFound,
  [TransportErrorKind.InvalidRequest]: MarketplaceErrorCode.BadRequest,
  [TransportErrorKind.TooManyRequests]: MarketplaceErrorCode.TooManyRequests,
  [TransportErrorKind.RequestTimeout]: MarketplaceErrorCode.RequestTimeout,
  [TransportErrorKind.ServiceUnavailable]:
    MarketplaceErrorCode.KinveyInternalErrorRetry,
  [TransportErrorKind.Internal]: MarketplaceErrorCode.KinveyInternalErrorRetry,
};

function kinvey(
  code: MarketplaceErrorCode,
  description: string,
  debug: string,
): HttpErrorResponse {
  // All three strings always: the iOS SDK builds typed errors only then.
  return {
    status: MARKETPLACE_ERROR_HTTP_STATUS[code],
    contentType: JSON_TYPE,
    body: { error: code, description, debug },
  };
}

/** Kinvey's `{error, description, debug}` bodies for the marketplace paths. */
export const marketplaceHttpErrorFormat: HttpErrorFormat = {
  context: 'marketplace',

  owns(path: string): boolean {
    return PREFIXES.some(
      (prefix) => path.startsWith(prefix) || `${path}/` === prefix,
    );
  },

  render(
    error: DomainError | TransportError,
    context: ErrorRenderContext,
  ): HttpErrorResponse {
    const response = renderKinvey(error, context);
    if (!context.path.startsWith(MANAGE_PREFIX)) return response;
    const { error: code, ...rest } = response.body as Record<string, string>;
    return { ...response, body: { code, ...rest } };
  },
};

function renderKinvey(
  error: DomainError | TransportError,
  { requestId }: ErrorRenderContext,
): HttpErrorResponse {
  if (error instanceof MarketplaceError) {
    const response = kinvey(error.code, error.message, error.debug);
    const retry = error.details['retryAfterSeconds'];
    return typeof retry === 'number'
      ? { ...response, headers: { 'Retry-After': String(retry) } }
      : response;
  }
  const kind =
    error instanceof DomainError ? TransportErrorKind.Internal : error.kind;
  const code = TRANSPORT[kind];
  const description =
    code === MarketplaceErrorCode.KinveyInternalErrorRetry
      ? 'The Kinvey server encountered an unexpected error. Please retry your request.'
      : error.message;
  const response = kinvey(code, description, `request id ${requestId}`);
  const retryAfter =
    error instanceof DomainError ? undefined : error.retryAfterSeconds;
  return retryAfter === undefined
    ? response
    : { ...response, headers: { 'Retry-After': String(retryAfter) } };
}
