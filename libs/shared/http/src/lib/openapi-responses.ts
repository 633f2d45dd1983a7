import { applyDecorators } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiResponse,
  ApiSecurity,
  getSchemaPath,
} from '@nestjs/swagger';
import type { HeadersObject } from '@nestjs/swagger';

/** `Retry-After` as documented on 429 and 503 responses. */
export const RETRY_AFTER_HEADER: HeadersObject = {
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer', minimum: 0 },
  },
};

export interface ErrorResponseDoc {
  readonly description: string;
  readonly headers?: HeadersObject;
}

/**
 * A context's error responses in OpenAPI, each with the context's own error
 * body (`type`, a documented class, sent as `contentType`) and its headers.
 * Applies to a method or, on a controller, to each of its methods.
 */
export function ApiErrorResponses(
  type: abstract new (...args: never[]) => unknown,
  responses: Readonly<Record<number, ErrorResponseDoc>>,
  contentType = 'application/json',
): MethodDecorator & ClassDecorator {
  const model = type as unknown as new () => unknown;
  return applyDecorators(
    ApiExtraModels(model),
    ...Object.entries(responses).map(([status, doc]) =>
      ApiResponse({
        status: Number(status),
        description: doc.description,
        content: { [contentType]: { schema: { $ref: getSchemaPath(model) } } },
        ...(doc.headers ? { headers: doc.headers } : {}),
      }),
    ),
  );
}

/** 503 while the database is unreachable, as the gateway's error filter answers it. */
export const DATABASE_UNAVAILABLE: ErrorResponseDoc = {
  description: 'The database is unavailable; nothing was changed.',
  headers: RETRY_AFTER_HEADER,
};

/**
 * An operation anyone may call (`security: [{}]`), said explicitly so that an
 * operation with no requirement at all stands out as a forgotten one.
 */
export function ApiPublic(): MethodDecorator & ClassDecorator {
  return ApiSecurity({});
}
