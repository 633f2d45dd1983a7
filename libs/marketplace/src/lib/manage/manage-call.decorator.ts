import { applyDecorators } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger';

/** The management error body kinvey-cli reads: `code`, `description`, `debug`. */
const MANAGE_ERROR: SchemaObject = {
  type: 'object',
  properties: {
    code: { type: 'string', example: 'AppNotFound' },
    description: { type: 'string' },
    debug: { type: 'string' },
  },
};

/** OpenAPI of a management call (an operator session unless `open`). */
export function ManageCall(
  summary: string,
  success: SchemaObject | undefined,
  status = 200,
  open = false,
): MethodDecorator {
  return applyDecorators(
    ApiOperation({ summary }),
    ...(open ? [] : [ApiSecurity('kinvey')]),
    ApiResponse(
      success
        ? { status, description: 'OK', schema: success }
        : { status, description: 'Done; no body.' },
    ),
    ApiResponse({
      status: 400,
      description: 'Bad request',
      schema: MANAGE_ERROR,
    }),
    ApiResponse({
      status: 401,
      description: 'No valid operator session',
      schema: MANAGE_ERROR,
    }),
    ApiResponse({
      status: 404,
      description: 'Not found',
      schema: MANAGE_ERROR,
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
