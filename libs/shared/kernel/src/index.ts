export { DomainError } from './lib/domain-error';
export type { FieldError } from './lib/field-error';
export { TransportError, TransportErrorKind } from './lib/transport-error';
export type {
  HttpErrorFormat,
  HttpErrorResponse,
  ErrorRenderContext,
} from './lib/http-error-format';
export { newId, isUuid } from './lib/ids';
export { CLOCK, systemClock, FixedClock } from './lib/clock';
export type { Clock } from './lib/clock';
export {
  hashToken,
  constantTimeEqual,
  digestsEqual,
  randomToken,
  SecretMatcher,
} from './lib/secrets';
export { METRICS_REGISTRY } from './lib/metrics';
export {
  hashPassword,
  verifyPassword,
  DUMMY_PASSWORD_HASH,
} from './lib/passwords';
export { BoundedMap } from './lib/bounded-map';
export { SerialRunner } from './lib/serial-runner';
export { smtpTransport } from './lib/smtp-transport';
export { READINESS_DETAILS, ReadinessDetails } from './lib/readiness-details';
export {
  encodeCursor,
  decodeCursor,
  encodePosition,
  decodePosition,
  keysetPage,
  pageOffset,
} from './lib/pagination';
export type { KeysetPosition } from './lib/pagination';
export { inBackground, within } from './lib/promises';
export { SecretSealer } from './lib/secret-sealer';
