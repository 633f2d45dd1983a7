import { Body, HttpCode, Post } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';

import { requireMaster } from '../auth/access';
import { Caller } from '../auth/kinvey-auth.guard';
import { KinveyController } from '../auth/kinvey-controller.decorator';
import type { Principal } from '../auth/principal';
import { KINVEY_COUNT, ok, KinveyCall } from '../http/kinvey-api.decorators';
import { isPlainObject } from '../kinvey/kinvey-doc';
import { MarketplaceError } from '../common/marketplace.errors';
import { CollectionsService } from '../app-collections/collections.service';
import {
  SystemCollectionsService,
  isSystemCollection,
} from './system-collections.service';

/** Kinvey's master-secret collection RPC, which SDK test suites call to clean up. */
@KinveyController('rpc/:appKey', 'marketplace: collections')
export class CollectionRpcController {
  constructor(
    private readonly collections: CollectionsService,
    private readonly system: SystemCollectionsService,
  ) {}

  @Post('remove-collection')
  @HttpCode(200)
  @KinveyCall(
    'Delete a collection and every record of it ({collectionName}); `user` and `_blob` are emptied: every user and its sessions, every file and its bytes',
    'master',
    ok(KINVEY_COUNT, 'How many records, users or files were deleted.'),
  )
  @ApiBody({
    schema: {
      type: 'object',
      properties: { collectionName: { type: 'string' } },
    },
  })
  async removeCollection(
    @Caller() principal: Principal,
    @Body() body: unknown,
  ): Promise<{ count: number }> {
    requireMaster(principal);
    const name = isPlainObject(body) ? body['collectionName'] : undefined;
    if (typeof name !== 'string' || !name)
      throw MarketplaceError.incompleteBody(
        'collectionName is required.',
        'collectionName',
      );
    const appKey = principal.app.appKey;
    return {
      count: isSystemCollection(name)
        ? await this.system.empty(appKey, name)
        : await this.collections.remove(appKey, name),
    };
  }
}
