import { Body, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiBody, ApiParam } from '@nestjs/swagger';

import { requireOperator } from '../auth/access';
import { Caller } from '../auth/kinvey-auth.guard';
import { KinveyController } from '../auth/kinvey-controller.decorator';
import type { Principal } from '../auth/principal';
import { noContent, ok, KinveyCall } from '../http/kinvey-api.decorators';
import { isPlainObject } from '../kinvey/kinvey-doc';
import { BusinessLogicConfig } from './business-logic-config';
import type { BusinessLogicView, FlexTarget } from './business-logic.types';
import { FlexClient } from './flex-client';
import type { FlexHealth } from './flex-client';

const TARGET = {
  type: 'object',
  properties: { service: { type: 'string' }, function: { type: 'string' } },
  required: ['service', 'function'],
};

const DATA_TARGET = {
  type: 'object',
  properties: {
    service: { type: 'string' },
    serviceObject: { type: 'string' },
  },
  required: ['service', 'serviceObject'],
};

function fieldsOf(body: unknown): Record<string, unknown> {
  return isPlainObject(body) ? body : {};
}

function targetOf(body: unknown, handlerField: string): FlexTarget {
  const fields = fieldsOf(body);
  return {
    service: fields['service'] as string,
    handler: fields[handlerField] as string,
  };
}

/**
 * The operator's REST API for an app's business logic (master secret):
 * Flex services, and the endpoints, hooks and FlexData collections bound
 * to their functions.
 */
@KinveyController('admin/:appKey/business-logic', 'marketplace: business logic')
export class BusinessLogicController {
  constructor(
    private readonly config: BusinessLogicConfig,
    private readonly client: FlexClient,
  ) {}

  @Get()
  @KinveyCall(
    "The app's Flex services (no secrets), endpoints, hooks and FlexData collections",
    'master',
    ok({ type: 'object', additionalProperties: true }),
  )
  view(@Caller() principal: Principal): Promise<BusinessLogicView> {
    requireOperator(principal);
    return this.config.view(principal.app.appKey);
  }

  @Put('services/:name')
  @HttpCode(204)
  @ApiParam({ name: 'name' })
  @KinveyCall(
    'Register a Flex service, or change its URL, shared secret and timeout',
    'master',
    noContent('Registered.'),
  )
  @ApiBody({
    schema: {
      type: 'object',
      properties: {
        url: { type: 'string' },
        secret: { type: 'string' },
        timeoutMs: { type: 'integer' },
      },
      required: ['url', 'secret'],
    },
  })
  async setService(
    @Caller() principal: Principal,
    @Param('name') name: string,
    @Body() body: unknown,
  ): Promise<void> {
    requireOperator(principal);
    const fields = fieldsOf(body);
    await this.config.setService(principal.app.appKey, {
      name,
      url: fields['url'] as string,
      sharedSecret: fields['secret'] as string,
      timeoutMs: fields['timeoutMs'] as number | undefined,
    });
  }

  @Delete('services/:name')
  @HttpCode(204)
  @ApiParam({ name: 'name' })
  @KinveyCall(
    'Remove a Flex service and what is bound to it',
    'master',
    noContent('Removed.'),
  )
  async removeService(
    @Caller() principal: Principal,
    @Param('name') name: string,
  ): Promise<void> {
    requireOperator(principal);
    await this.config.removeService(principal.app.appKey, name);
  }

  @Get('services/:name/health')
  @ApiParam({ name: 'name' })
  @KinveyCall(
    "The Flex service's health check, and how long it took",
    'master',
    ok({
      type: 'object',
      properties: {
        healthy: { type: 'boolean' },
        ms: { type: 'integer' },
        detail: { type: 'string' },
      },
    }),
  )
  async health(
    @Caller() principal: Principal,
    @Param('name') name: string,
  ): Promise<FlexHealth> {
    requireOperator(principal);
    return this.client.health(
      await this.config.service(principal.app.appKey, name),
    );
  }

  @Put('endpoints/:name')
  @HttpCode(204)
  @ApiParam({ name: 'name' })
  @KinveyCall(
    'Bind a custom endpoint to a Flex function',
    'master',
    noContent('Bound.'),
  )
  @ApiBody({ schema: TARGET })
  async setEndpoint(
    @Caller() principal: Principal,
    @Param('name') name: string,
    @Body() body: unknown,
  ): Promise<void> {
    requireOperator(principal);
    await this.config.setEndpoint(
      principal.app.appKey,
      name,
      targetOf(body, 'function'),
    );
  }

  @Delete('endpoints/:name')
  @HttpCode(204)
  @ApiParam({ name: 'name' })
  @KinveyCall('Unbind a custom endpoint', 'master', noContent('Unbound.'))
  async removeEndpoint(
    @Caller() principal: Principal,
    @Param('name') name: string,
  ): Promise<void> {
    requireOperator(principal);
    await this.config.removeEndpoint(principal.app.appKey, name);
  }

  @Put('hooks/:collection/:hook')
  @HttpCode(204)
  @ApiParam({ name: 'collection' })
  @ApiParam({
    name: 'hook',
    description:
      'onPreSave, onPostSave, onPreFetch, onPostFetch, onPreDelete or onPostDelete',
  })
  @KinveyCall(
    "Bind a collection's hook to a Flex function",
    'master',
    noContent('Bound.'),
  )
  @ApiBody({ schema: TARGET })
  async setHook(
    @Caller() principal: Principal,
    @Param('collection') collection: string,
    @Param('hook') hook: string,
    @Body() body: unknown,
  ): Promise<void> {
    requireOperator(principal);
    await this.config.setHook(
      principal.app.appKey,
      collection,
      hook,
      targetOf(body, 'function'),
    );
  }

  @Delete('hooks/:collection/:hook')
  @HttpCode(204)
  @ApiParam({ name: 'collection' })
  @ApiParam({ name: 'hook' })
  @KinveyCall("Unbind a collection's hook", 'master', noContent('Unbound.'))
  async removeHook(
    @Caller() principal: Principal,
    @Param('collection') collection: string,
    @Param('hook') hook: string,
  ): Promise<void> {
    requireOperator(principal);
    await this.config.removeHook(principal.app.appKey, collection, hook);
  }

  @Put('data/:collection')
  @HttpCode(204)
  @ApiParam({ name: 'collection' })
  @KinveyCall(
    'Serve a collection from a Flex service object (FlexData)',
    'master',
    noContent('Bound.'),
  )
  @ApiBody({ schema: DATA_TARGET })
  async setDataCollection(
    @Caller() principal: Principal,
    @Param('collection') collection: string,
    @Body() body: unknown,
  ): Promise<void> {
    requireOperator(principal);
    await this.config.setDataCollection(
      principal.app.appKey,
      collection,
      targetOf(body, 'serviceObject'),
    );
  }

  @Delete('data/:collection')
  @HttpCode(204)
  @ApiParam({ name: 'collection' })
  @KinveyCall(
    'Serve the collection from Quitanda again',
    'master',
    noContent('Unbound.'),
  )
  async removeDataCollection(
    @Caller() principal: Principal,
    @Param('collection') collection: string,
  ): Promise<void> {
    requireOperator(principal);
    await this.config.removeDataCollection(principal.app.appKey, collection);
  }
}
