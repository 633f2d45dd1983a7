import {
  Body,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { ApiBody, ApiQuery } from '@nestjs/swagger';
import type { Request, Response } from 'express';

import { parseAuthorization } from '../auth/authorization-header';
import { Caller } from '../auth/kinvey-auth.guard';
import { KinveyController } from '../auth/kinvey-controller.decorator';
import type { Principal } from '../auth/principal';
import type { FindParams } from '../kinvey/find-params';
import type { KinveyDoc } from '../kinvey/kinvey-doc';
import {
  KINVEY_COUNT,
  KINVEY_ENTITIES,
  KINVEY_ENTITY,
  noContent,
  ok,
  KinveyCall,
} from '../http/kinvey-api.decorators';
import { DataCallLogic, USER_COLLECTION } from '../records/data-call-logic';
import { UserQueryService } from './user-query.service';
import { UsersService } from './users.service';

const USER_BODY = {
  schema: { type: 'object', additionalProperties: true },
  description: 'A user: username, password (8..256) and any other fields.',
};

@KinveyController('user/:appKey', 'marketplace: users')
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly queries: UserQueryService,
    private readonly logic: DataCallLogic,
  ) {}

  @Post()
  @KinveyCall(
    'Sign up (logs in: the reply carries _kmd.authtoken)',
    'app or master',
    ok(KINVEY_ENTITY, 'The user, with `_kmd.authtoken`.', 201),
    {
      409: 'UserAlreadyExists.',
      429: 'TooManyRequests: too many app-credential signups from this client address this hour; retry after `Retry-After` seconds.',
    },
  )
  @ApiBody(USER_BODY)
  async signup(
    @Caller() principal: Principal,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<unknown> {
    await this.users.admitSignup(
      principal,
      req.ip ?? req.socket.remoteAddress ?? 'unknown',
    );
    // The body is read once the pre-save hook may have changed it.
    return this.logic.around(
      'create',
      principal,
      USER_COLLECTION,
      req,
      async () => {
        const user = await this.users.createUser(principal, req.body);
        res
          .status(201)
          .setHeader(
            'Location',
            `/user/${principal.app.appKey}/${String(user['_id'])}`,
          );
        return user;
      },
    );
  }

  @Get('_me')
  @KinveyCall('The calling user', 'user', ok(KINVEY_ENTITY))
  me(@Caller() principal: Principal): KinveyDoc {
    return this.users.me(principal);
  }

  @Post('_lookup')
  @HttpCode(200)
  @KinveyCall(
    'Users matching a filter (the body); soft-deleted ones hidden',
    'user or master',
    ok(KINVEY_ENTITIES),
  )
  @ApiBody({ schema: { type: 'object', additionalProperties: true } })
  lookup(
    @Caller() principal: Principal,
    @Body() body: unknown,
  ): Promise<KinveyDoc[]> {
    return this.queries.lookup(principal, body ?? {});
  }

  @Get()
  @KinveyCall(
    'Users matching ?query= (never passwords)',
    'user or master',
    ok(KINVEY_ENTITIES),
  )
  @ApiQuery({ name: 'query', required: false })
  list(@Caller() principal: Principal, @Req() req: Request): Promise<unknown> {
    return this.logic.around('list', principal, USER_COLLECTION, req, () =>
      this.queries.list(principal, req.query as FindParams),
    );
  }

  @Get('_count')
  @KinveyCall(
    'How many users match ?query= (those a find would see)',
    'user or master',
    ok(KINVEY_COUNT),
  )
  @ApiQuery({ name: 'query', required: false })
  async count(
    @Caller() principal: Principal,
    @Query() params: FindParams,
  ): Promise<{ count: number }> {
    return { count: await this.queries.count(principal, params) };
  }

  @Get(':id')
  @KinveyCall(
    'One user (never its password)',
    'user or master',
    ok(KINVEY_ENTITY),
  )
  get(
    @Caller() principal: Principal,
    @Param('id') id: string,
    @Req() req: Request,
  ): Promise<unknown> {
    return this.logic.around('get', principal, USER_COLLECTION, req, () =>
      this.users.get(principal, id),
    );
  }

  @Put(':id')
  @KinveyCall(
    'Update a user (own update returns _kmd.authtoken)',
    'that user or master',
    ok(KINVEY_ENTITY),
    { 409: 'UserAlreadyExists: the new username is taken.' },
  )
  @ApiBody(USER_BODY)
  update(
    @Caller() principal: Principal,
    @Param('id') id: string,
    @Headers('authorization') authorization: string | undefined,
    @Req() req: Request,
  ): Promise<unknown> {
    const credentials = parseAuthorization(authorization);
    const token =
      credentials?.scheme === 'kinvey' ? credentials.token : undefined;
    return this.logic.around('update', principal, USER_COLLECTION, req, () =>
      this.users.update(principal, id, req.body, token),
    );
  }

  @Delete(':id/tokens')
  @HttpCode(204)
  @KinveyCall(
    'Log out everywhere: every token of the user stops working',
    'that user or master',
    noContent(),
  )
  revokeTokens(
    @Caller() principal: Principal,
    @Param('id') id: string,
  ): Promise<void> {
    return this.users.revokeTokens(principal, id);
  }

  @Delete(':id')
  @HttpCode(204)
  @KinveyCall(
    'Delete a user: soft (login disabled) or ?hard=true',
    'master',
    noContent(),
  )
  @ApiQuery({ name: 'hard', required: false, type: Boolean })
  remove(
    @Caller() principal: Principal,
    @Param('id') id: string,
    @Req() req: Request,
  ): Promise<unknown> {
    return this.logic.around('remove', principal, USER_COLLECTION, req, () =>
      this.users.remove(principal, id, {
        hard: (req.query as { hard?: unknown }).hard === 'true',
      }),
    );
  }
}
