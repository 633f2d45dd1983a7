import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Post,
  Req,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';

import { MarketplaceError } from '../common/marketplace.errors';
import { ManageCall } from './manage-call.decorator';
import { objectBody } from './object-body';
import { operatorToken } from './operator-auth.guard';
import { OperatorSessionsService } from './operator-sessions.service';

/** kinvey-cli's login and logout (`profile create`, `profile login`...). */
@Controller('manage/session')
@ApiTags('marketplace: management (kinvey-cli)')
export class ManageSessionController {
  constructor(private readonly sessions: OperatorSessionsService) {}

  @Post()
  @HttpCode(200)
  @ManageCall(
    'Log an operator in',
    {
      type: 'object',
      properties: { email: { type: 'string' }, token: { type: 'string' } },
    },
    200,
    true,
  )
  login(@Body() raw: unknown): Promise<{ email: string; token: string }> {
    const body = objectBody(raw);
    if (body['twoFactorToken'] !== undefined)
      throw MarketplaceError.featureUnavailable(
        'twoFactorToken',
        'Operator accounts have no second factor here.',
      );
    return this.sessions.login(body['email'], body['password']);
  }

  @Delete()
  @HttpCode(204)
  @ManageCall('End the operator session', undefined, 204)
  async logout(@Req() req: Request): Promise<void> {
    await this.sessions.logout(operatorToken(req));
  }
}

/** Where `kinvey init` asks which logins there are: the password one only. */
@Controller('manage/v4/identity-providers')
@ApiTags('marketplace: management (kinvey-cli)')
export class IdentityProvidersController {
  @Get()
  @ManageCall(
    'External identity providers of operators: none (e-mail and password)',
    { type: 'array', items: { type: 'object' } },
    200,
    true,
  )
  list(): never[] {
    return [];
  }
}
