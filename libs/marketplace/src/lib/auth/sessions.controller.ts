import { Body, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOperation } from '@nestjs/swagger';
import { RETRY_AFTER_HEADER } from '@quitanda/http';

import type { KinveyDoc } from '../kinvey/kinvey-doc';
import {
  KINVEY_ENTITY,
  noContent,
  ok,
  KinveyCall,
} from '../http/kinvey-api.decorators';
import { Caller } from './kinvey-auth.guard';
import { KinveyController } from './kinvey-controller.decorator';
import type { Principal } from './principal';
import { SessionsService } from './sessions.service';

/** Kinvey's login and logout, beside the rest of `/user/{appKey}`. */
@KinveyController('user/:appKey', 'marketplace: users')
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Post('login')
  @HttpCode(200)
  @KinveyCall(
    'Log in with {username, password}; repeated failures: 429',
    'app or master',
    ok(KINVEY_ENTITY, 'The user, with `_kmd.authtoken`.'),
    {
      429: {
        description:
          'TooManyRequests: too many failed logins of this username; retry after `Retry-After` seconds.',
        headers: RETRY_AFTER_HEADER,
      },
    },
  )
  // Below KinveyCall so its summary wins; the id predates this controller
  // and generated clients name their methods after it.
  @ApiOperation({ operationId: 'UsersController_login' })
  @ApiBody({
    schema: {
      type: 'object',
      properties: {
        username: { type: 'string' },
        password: { type: 'string' },
      },
    },
  })
  login(
    @Caller() principal: Principal,
    @Body() body: unknown,
  ): Promise<KinveyDoc> {
    return this.sessions.logIn(principal, body);
  }

  @Post('_logout')
  @HttpCode(204)
  @KinveyCall('Log out: the token stops working', 'user', noContent())
  // Generated clients name their methods after the id it had before.
  @ApiOperation({ operationId: 'UsersController_logout' })
  logout(@Caller() principal: Principal): Promise<void> {
    return this.sessions.logOut(principal);
  }
}
