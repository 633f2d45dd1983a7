import { HttpStatus } from '@nestjs/common';
import { TransportErrorKind } from '@quitanda/kernel';

/**
 * The status of each transport failure, the same in every context's error
 * format: formats differ in the body they render, never in the status.
 */
export const TRANSPORT_ERROR_HTTP_STATUS: Readonly<
  Record<TransportErrorKind, HttpStatus>
> = {
  [TransportErrorKind.MalformedBody]: HttpStatus.BAD_REQUEST,
  [TransportErrorKind.UnsupportedMediaType]: HttpStatus.UNSUPPORTED_MEDIA_TYPE,
  [TransportErrorKind.PayloadTooLarge]: HttpStatus.PAYLOAD_TOO_LARGE,
  [TransportErrorKind.RouteNotFound]: HttpStatus.NOT_FOUND,
  [TransportErrorKind.InvalidRequest]: HttpStatus.BAD_REQUEST,
  [TransportErrorKind.TooManyRequests]: HttpStatus.TOO_MANY_REQUESTS,
  [TransportErrorKind.RequestTimeout]: HttpStatus.REQUEST_TIMEOUT,
  [TransportErrorKind.ServiceUnavailable]: HttpStatus.SERVICE_UNAVAILABLE,
  [TransportErrorKind.Internal]: HttpStatus.INTERNAL_SERVER_ERROR,
};
