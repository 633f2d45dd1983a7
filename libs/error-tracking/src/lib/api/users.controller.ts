import { Delete, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { NoContent } from '@quitanda/http';
import { CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';
import type { Request, Response } from 'express';

import { ErrorTrackingError } from '../common/error-tracking.errors';
import { BaseUrl } from '../http/base-url';
import { GitLabController } from './gitlab-controller.decorator';
import { ApiGitLabPage } from '../http/openapi';
import { offsetPage } from '../http/pagination';
import { Params } from '../http/params';
import { parseId } from '../http/path-params';
import type { Caller } from '../accounts/account.types';
import { AccountsService } from '../accounts/accounts.service';
import {
  CREATE_TOKEN_BODY,
  CREATE_USER_BODY,
} from './dto/users.request-bodies.dto';
import {
  NewTokenResponseDto,
  TokenResponseDto,
  toTokenResponse,
} from '../accounts/dto/token.response.dto';
import {
  UserResponseDto,
  toUserResponse,
} from '../accounts/dto/user.response.dto';
import { CurrentCaller } from '../accounts/token-auth.guard';

function requireAdmin(caller: Caller): void {
  if (!caller.user.isAdmin) throw ErrorTrackingError.forbidden();
}

/**
 * GitLab's users and personal access tokens. Named apart from the
 * marketplace's UsersController: OpenAPI operation ids come from class names.
 */
@GitLabController('api/v4', 'error tracking: users and tokens')
export class GitLabUsersController {
  constructor(
    private readonly accounts: AccountsService,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly baseUrl: BaseUrl,
  ) {}

  @Get('user')
  @ApiOperation({ summary: 'The authenticated user' })
  @ApiOkResponse({ type: UserResponseDto })
  me(@CurrentCaller() caller: Caller, @Req() req: Request): UserResponseDto {
    return toUserResponse(caller.user, this.baseUrl.of(req));
  }

  @Get('users')
  @ApiOperation({ summary: 'List users (admin)' })
  @ApiGitLabPage(UserResponseDto)
  async list(
    @CurrentCaller() caller: Caller,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<UserResponseDto[]> {
    requireAdmin(caller);
    const base = this.baseUrl.of(req);
    const users = await offsetPage(req, res, base, 'users', (limit, offset) =>
      this.accounts.listUsers(limit, offset),
    );
    return users.map((user) => toUserResponse(user, base));
  }

  @Post('users')
  @ApiOperation({ summary: 'Create a user (admin)' })
  @CREATE_USER_BODY.ApiBody()
  @ApiCreatedResponse({ type: UserResponseDto })
  async create(
    @CurrentCaller() caller: Caller,
    @Req() req: Request,
  ): Promise<UserResponseDto> {
    requireAdmin(caller);
    const params = Params.of(req.query, req.body);
    const { email, password, name, username, admin } =
      CREATE_USER_BODY.read(params);
    params.check();
    const user = await this.accounts.createUser({
      username,
      name,
      email,
      password,
      isAdmin: admin ?? false,
    });
    return toUserResponse(user, this.baseUrl.of(req));
  }

  @Post('users/:user_id/personal_access_tokens')
  @ApiOperation({
    summary:
      "Create a user's personal access token (admin); shows `token` once",
  })
  @CREATE_TOKEN_BODY.ApiBody()
  @ApiCreatedResponse({ type: NewTokenResponseDto })
  async createToken(
    @CurrentCaller() caller: Caller,
    @Param('user_id') userId: string,
    @Req() req: Request,
  ): Promise<NewTokenResponseDto> {
    requireAdmin(caller);
    const id = parseId(userId, 'User');
    const params = Params.of(req.query, req.body);
    const body = CREATE_TOKEN_BODY.read(params);
    params.check();
    const issued = await this.accounts.createToken(id, {
      name: body.name,
      scopes: body.scopes ?? [],
      expiresAt: body.expires_at || null,
    });
    return {
      ...toTokenResponse(issued.record, this.clock.now()),
      token: issued.token,
    };
  }

  @Get('personal_access_tokens')
  @ApiOperation({ summary: "The caller's personal access tokens" })
  @ApiOkResponse({ type: TokenResponseDto, isArray: true })
  async tokens(@CurrentCaller() caller: Caller): Promise<TokenResponseDto[]> {
    const now = this.clock.now();
    return (await this.accounts.listTokens(caller.user.id)).map((t) =>
      toTokenResponse(t, now),
    );
  }

  @Delete('personal_access_tokens/:id')
  @NoContent()
  @ApiOperation({
    summary: 'Revoke a token (own, or any for an admin); `self` = the one used',
  })
  async revoke(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
  ): Promise<void> {
    const tokenId = id === 'self' ? caller.token.id : parseId(id);
    await this.accounts.revokeToken(caller, tokenId);
  }
}
