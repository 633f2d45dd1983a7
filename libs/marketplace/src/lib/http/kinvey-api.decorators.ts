import { applyDecorators } from '@nestjs/common';
import {
  ApiBasicAuth,
  ApiHeader,
  ApiOperation,
  ApiParam,
  ApiResponse,
} from '@nestjs/swagger';

/**
 * OpenAPI of a Kinvey call: its summary, the app key in the path, the
 * accepted `Authorization` forms and Kinvey's error body.
 */
export function KinveyCall(summary: string, auth: string): MethodDecorator {
  return applyDecorators(
    ApiOperation({ summary, description: `Authorization: ${auth}.` }),
    ApiParam({ name: 'appKey', description: 'The app key (kid_...)' }),
    ApiBasicAuth(),
    ApiHeader({
      name: 'X-Kinvey-API-Version',
      required: false,
      description:
        'Kinvey API version of the client (multi-insert needs 5 or more).',
    }),
    ApiResponse({
      status: 401,
      description:
        'InvalidCredentials (bad or missing credentials) or InsufficientCredentials (not allowed): `{error, description, debug}`.',
    }),
    ApiResponse({
      status: 404,
      description: 'AppNotFound and the other *NotFound errors.',
    }),
  );
}
