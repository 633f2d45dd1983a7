import { applyDecorators } from '@nestjs/common';
import {
  ApiOperation,
  ApiProperty,
  ApiResponse,
  ApiSecurity,
} from '@nestjs/swagger';
import { ApiErrorResponses, ApiPublic } from '@quitanda/http';
import type { SchemaObject } from '@nestjs/swagger';

/** The management error body kinvey-cli reads: `code` where the SDKs read `error`. */
export class KinveyManageErrorDto {
  @ApiProperty({ example: 'AppNotFound' }) code!: string;
  @ApiProperty({ example: 'This app was not found.' }) description!: string;
  @ApiProperty({ example: '0b9c...' }) debug!: string;
}

/** OpenAPI of a management call (an operator session unless `open`). */
export function ManageCall(
  summary: string,
  success: SchemaObject | undefined,
  status = 200,
  open = false,
): MethodDecorator {
  return applyDecorators(
    ApiOperation({ summary }),
    open ? ApiPublic() : ApiSecurity('kinvey'),
    ApiResponse(
      success
        ? { status, description: 'OK', schema: success }
        : { status, description: 'Done; no body.' },
    ),
    ApiErrorResponses(KinveyManageErrorDto, {
      400: { description: 'Bad request, or not served (FeatureUnavailable)' },
      401: { description: 'No valid operator session' },
      404: {
        description: 'No such organization, app, environment or service',
      },
    }),
  );
}

export const ORGANIZATION_SCHEMA: SchemaObject = {
  type: 'object',
  properties: { id: { type: 'string' }, name: { type: 'string' } },
};

export const ENVIRONMENT_SCHEMA: SchemaObject = {
  type: 'object',
  properties: {
    id: { type: 'string', description: 'The app key (kid_...)' },
    name: { type: 'string' },
    app: { type: 'string' },
    appSecret: { type: 'string' },
    masterSecret: { type: 'string' },
  },
};

export const APP_SCHEMA: SchemaObject = {
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    organizationId: { type: 'string' },
    environments: { type: 'array', items: ENVIRONMENT_SCHEMA },
  },
};

export const COLLECTION_SCHEMA: SchemaObject = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    permissions: {
      type: 'string',
      enum: ['append-read', 'append-only', 'read-only', 'write'],
    },
    dataLink: {
      type: 'object',
      description: 'The Flex service object serving the collection (FlexData)',
      properties: {
        id: { type: 'string' },
        backingServerId: { type: 'string' },
        serviceObjectName: { type: 'string' },
      },
    },
  },
};

export const SERVICE_ENVIRONMENT_SCHEMA: SchemaObject = {
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    host: { type: 'string', description: "The service's URL" },
    secret: { type: 'string', description: 'Shared with the service' },
    description: { type: 'string' },
  },
};

export const SERVICE_SCHEMA: SchemaObject = {
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    type: { type: 'string', enum: ['external'] },
    description: { type: 'string' },
    access: { type: 'object' },
    environments: { type: 'array', items: SERVICE_ENVIRONMENT_SCHEMA },
  },
};

export const HANDLER_SCHEMA: SchemaObject = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    host: { type: 'string', description: 'The service environment id' },
    sdkHandlerName: { type: 'string' },
  },
};
