import { applyDecorators } from '@nestjs/common';
import {
  ApiHeader,
  ApiOperation,
  ApiParam,
  ApiProperty,
  ApiResponse,
  ApiSecurity,
} from '@nestjs/swagger';
import type {
  ApiResponseOptions,
  SchemaObject,
  SecuritySchemeObject,
} from '@nestjs/swagger';
import { ApiErrorResponses } from '@quitanda/http';
import type { ErrorResponseDoc } from '@quitanda/http';

/** The schemes Kinvey calls name; declared by the gateway. */
export const MARKETPLACE_SECURITY_SCHEMES: Readonly<
  Record<string, SecuritySchemeObject>
> = {
  basic: {
    type: 'http',
    scheme: 'basic',
    description:
      'App credentials (`appKey:appSecret`), master (`appKey:masterSecret`), or a user at login.',
  },
  kinvey: {
    type: 'http',
    scheme: 'kinvey',
    description:
      'A user session: `Authorization: Kinvey <_kmd.authtoken>` (from sign-up or login).',
  },
  kinveyMfa: {
    type: 'http',
    scheme: 'kinveymfa',
    description:
      'A login waiting for its second factor: `Authorization: KinveyMFA <mfaSessionToken>` (from a login that answered `mfaRequired`).',
  },
};

/** Kinvey's error body; all three strings always. */
export class KinveyErrorDto {
  @ApiProperty({ example: 'EntityNotFound' }) error!: string;
  @ApiProperty({
    example: 'This entity not found in the collection',
  })
  description!: string;

  @ApiProperty({ example: 'request id 3f0c...' }) debug!: string;
}

/** A Kinvey entity: its fields plus `_id`, `_acl` and `_kmd`. */
export const KINVEY_ENTITY: SchemaObject = {
  type: 'object',
  properties: {
    _id: { type: 'string' },
    _acl: {
      type: 'object',
      properties: { creator: { type: 'string' } },
      additionalProperties: true,
    },
    _kmd: {
      type: 'object',
      properties: {
        lmt: { type: 'string', format: 'date-time' },
        ect: { type: 'string', format: 'date-time' },
      },
      additionalProperties: true,
    },
  },
  additionalProperties: true,
};

export const KINVEY_ENTITIES: SchemaObject = {
  type: 'array',
  items: KINVEY_ENTITY,
};

export const KINVEY_COUNT: SchemaObject = {
  type: 'object',
  properties: { count: { type: 'integer' } },
  required: ['count'],
};

/** A success response with a JSON body. */
export function ok(
  schema: SchemaObject,
  description = 'OK',
  status = 200,
): ApiResponseOptions {
  return { status, description, schema };
}

export function noContent(description = 'Done; no body.'): ApiResponseOptions {
  return { status: 204, description };
}

/**
 * OpenAPI of a Kinvey call: its summary, the app key in the path, the
 * accepted `Authorization` forms (`auth` names them: app or master use Basic,
 * a user a Kinvey session), its success response and Kinvey's error body.
 */
export function KinveyCall(
  summary: string,
  auth: string,
  success: ApiResponseOptions,
  errors: Readonly<Record<number, string | ErrorResponseDoc>> = {},
): MethodDecorator {
  const basic = /\b(app|master|any)\b/.test(auth);
  const session = /\b(user|creator|any)\b/.test(auth);
  const mfa = /\bKinveyMFA\b/.test(auth);
  return applyDecorators(
    ApiOperation({ summary, description: `Authorization: ${auth}.` }),
    ApiParam({ name: 'appKey', description: 'The app key (kid_...)' }),
    ...(basic ? [ApiSecurity('basic')] : []),
    ...(session ? [ApiSecurity('kinvey')] : []),
    ...(mfa ? [ApiSecurity('kinveyMfa')] : []),
    ApiHeader({
      name: 'X-Kinvey-API-Version',
      required: false,
      description:
        'Kinvey API version of the client (multi-insert needs 5 or more).',
    }),
    ApiResponse(success),
    ApiErrorResponses(KinveyErrorDto, {
      400: {
        description:
          'BadRequest, JSONParseError, InvalidQuerySyntax, FeatureUnavailable, ...',
      },
      401: {
        description:
          'InvalidCredentials (bad or missing credentials) or InsufficientCredentials (not allowed).',
      },
      404: { description: 'AppNotFound and the other *NotFound errors.' },
      500: {
        description:
          'KinveyInternalErrorRetry: unexpected, or the database is unavailable; retry.',
      },
      ...Object.fromEntries(
        Object.entries(errors).map(([status, doc]) => [
          status,
          typeof doc === 'string' ? { description: doc } : doc,
        ]),
      ),
    }),
  );
}
