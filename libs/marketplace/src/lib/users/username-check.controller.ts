import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';

import { Caller, KinveyAuthGuard } from '../auth/kinvey-auth.guard';
import type { Principal } from '../auth/principal';
import { ok, KinveyCall } from '../http/kinvey-api.decorators';
import { UsersService } from './users.service';

/** Kinvey's `check-username-exists`: an RPC by path, a users call by meaning. */
@ApiTags('marketplace: rpc')
@Controller('rpc/:appKey')
export class UsernameCheckController {
  constructor(private readonly users: UsersService) {}

  @Post('check-username-exists')
  @UseGuards(KinveyAuthGuard)
  @HttpCode(200)
  @KinveyCall(
    'Whether a username is taken (soft-deleted users count)',
    'app or master',
    ok({ type: 'object', properties: { usernameExists: { type: 'boolean' } } }),
  )
  // Below KinveyCall so its summary wins; the id predates this controller
  // and generated clients name their methods after it.
  @ApiOperation({ operationId: 'RpcController_usernameExists' })
  @ApiBody({
    schema: { type: 'object', properties: { username: { type: 'string' } } },
  })
  async usernameExists(
    @Caller() principal: Principal,
    @Body() body: unknown,
  ): Promise<{ usernameExists: boolean }> {
    return { usernameExists: await this.users.usernameExists(principal, body) };
  }
}
