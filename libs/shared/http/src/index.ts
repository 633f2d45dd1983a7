export { hasBody, jsonBody, safeUrl } from './lib/json-body.middleware';
export type { JsonBodyOptions } from './lib/json-body.middleware';
export { requestIdOf } from './lib/request-id';
export { endWithBody } from './lib/end-with-body';
export { RequestValidationPipe } from './lib/validation.pipe';
export { TrimmedLength } from './lib/trimmed-length.decorator';
export { NoContent } from './lib/no-content.decorator';
export { JsonText } from './lib/json-text';
export {
  ApiErrorResponses,
  ApiPublic,
  DATABASE_UNAVAILABLE,
  RETRY_AFTER_HEADER,
} from './lib/openapi-responses';
export type { ErrorResponseDoc } from './lib/openapi-responses';
export { assertSafeJson, unsafeRequestError } from './lib/hostile-input';
export {
  DEADLINE,
  pauseDeadline,
  restartDeadline,
} from './lib/request-deadline';
export type { DeadlineControl } from './lib/request-deadline';
export { TRANSPORT_ERROR_HTTP_STATUS } from './lib/transport-error-status';
export {
  BODY_BUDGET,
  BodyBudget,
  holdBodyBytes,
  holdParserBody,
  jsonValuesAtMost,
  parsedExtraBytes,
} from './lib/body-budget';
export { DEFAULT_BODY_BUDGET_BYTES } from './lib/body-budget-default';
export { bodyLimitOf, noteBodyLimit } from './lib/body-limit';
