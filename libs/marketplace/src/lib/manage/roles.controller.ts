import { Get } from '@nestjs/common';

import { requireMaster } from '../auth/access';
import { Caller } from '../auth/kinvey-auth.guard';
import { KinveyController } from '../auth/kinvey-controller.decorator';
import type { Principal } from '../auth/principal';
import { KinveyCall, ok } from '../http/kinvey-api.decorators';

const EMPTY = ok({ type: 'array', items: { type: 'object' } });

/**
 * Kinvey's user roles and groups, as kinvey-cli reads them (master) when
 * it exports or applies an environment. This backend has neither: access
 * is the collection's level and the record's `_acl`, so the lists are
 * empty and creating one has no route (404).
 */
@KinveyController('roles/:appKey', 'marketplace: roles and groups')
export class RolesController {
  @Get()
  @KinveyCall("The app's roles: none on this backend", 'master', EMPTY)
  list(@Caller() principal: Principal): never[] {
    requireMaster(principal);
    return [];
  }
}

@KinveyController('group/:appKey', 'marketplace: roles and groups')
export class GroupsController {
  @Get()
  @KinveyCall("The app's user groups: none on this backend", 'master', EMPTY)
  list(@Caller() principal: Principal): never[] {
    requireMaster(principal);
    return [];
  }
}
