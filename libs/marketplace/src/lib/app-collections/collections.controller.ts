import { Body, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBody, ApiParam } from '@nestjs/swagger';

import { requireOperator } from '../auth/access';
import { Caller } from '../auth/kinvey-auth.guard';
import { KinveyController } from '../auth/kinvey-controller.decorator';
import type { Principal } from '../auth/principal';
import { isPlainObject } from '../kinvey/kinvey-doc';
import { noContent, ok, KinveyCall } from '../http/kinvey-api.decorators';
import { CollectionsService } from './collections.service';
import type { CollectionView } from './collections.service';

const COLLECTION = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    settings: {
      type: 'object',
      description:
        'permissions (shared, private, read-only, full), schema (JSON Schema), unique, references, deltaSet',
      additionalProperties: true,
    },
  },
} as const;

const CONFLICT = { 409: 'DuplicateEntity: a collection of this name exists.' };

/** The operator's REST API for an app's collections (master secret). */
@KinveyController('admin/:appKey/collections', 'marketplace: collections')
export class CollectionsController {
  constructor(private readonly collections: CollectionsService) {}

  @Get()
  @KinveyCall(
    "The app's collections and their settings",
    'master',
    ok({ type: 'array', items: COLLECTION }),
  )
  list(@Caller() principal: Principal): Promise<CollectionView[]> {
    requireOperator(principal);
    return this.collections.list(principal.app.appKey);
  }

  @Post()
  @KinveyCall(
    'Declare a collection',
    'master',
    ok(COLLECTION, 'The collection.', 201),
    CONFLICT,
  )
  @ApiBody({ schema: COLLECTION })
  create(
    @Caller() principal: Principal,
    @Body() body: unknown,
  ): Promise<CollectionView> {
    requireOperator(principal);
    const input = isPlainObject(body) ? body : {};
    return this.collections.create(
      principal.app.appKey,
      input['name'],
      input['settings'],
    );
  }

  @Get(':name')
  @ApiParam({ name: 'name' })
  @KinveyCall('One collection', 'master', ok(COLLECTION))
  show(
    @Caller() principal: Principal,
    @Param('name') name: string,
  ): Promise<CollectionView> {
    requireOperator(principal);
    return this.collections.show(principal.app.appKey, name);
  }

  @Put(':name')
  @ApiParam({ name: 'name' })
  @KinveyCall(
    "Replace a collection's settings (later writes follow them)",
    'master',
    ok(COLLECTION),
  )
  @ApiBody({ schema: COLLECTION })
  update(
    @Caller() principal: Principal,
    @Param('name') name: string,
    @Body() body: unknown,
  ): Promise<CollectionView> {
    requireOperator(principal);
    const input = isPlainObject(body) ? body : {};
    return this.collections.update(
      principal.app.appKey,
      name,
      input['settings'],
    );
  }

  @Delete(':name')
  @HttpCode(204)
  @ApiParam({ name: 'name' })
  @KinveyCall(
    'Delete a collection and every record of it',
    'master',
    noContent(),
  )
  async remove(
    @Caller() principal: Principal,
    @Param('name') name: string,
  ): Promise<void> {
    requireOperator(principal);
    await this.collections.remove(principal.app.appKey, name);
  }
}
