import {
  Body,
  Controller,
  Headers,
  HttpCode,
  Param,
  Post,
} from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';

import { KINVEY_ENTITY, KinveyCall, ok } from '../http/kinvey-api.decorators';
import type { KinveyDoc } from '../kinvey/kinvey-doc';
import { MfaLoginService } from './mfa-login.service';

const MFA_SESSION = 'KinveyMFA <mfaSessionToken> from the login';

/**
 * The second factor of a login. Not behind `KinveyAuthGuard`: its only
 * credential is the login's MFA session token, which no other call takes.
 */
@Controller('user/:appKey/mfa')
@ApiTags('marketplace: users')
export class MfaLoginController {
  constructor(private readonly login: MfaLoginService) {}

  @Post('challenge')
  @HttpCode(200)
  @KinveyCall(
    'Choose the authenticator that answers',
    MFA_SESSION,
    ok({ type: 'object' }),
  )
  @ApiBody({
    schema: {
      type: 'object',
      properties: { authenticatorId: { type: 'string' } },
    },
  })
  challenge(
    @Param('appKey') appKey: string,
    @Headers('authorization') authorization: string | undefined,
    @Body() body: unknown,
  ): Promise<Record<string, never>> {
    return this.login.challenge(appKey, authorization, body);
  }

  @Post('complete')
  @HttpCode(200)
  @KinveyCall(
    'Answer with a code: the login ends; createDeviceToken remembers this device',
    MFA_SESSION,
    ok({
      type: 'object',
      properties: {
        user: KINVEY_ENTITY,
        authToken: { type: 'string' },
        deviceToken: { type: 'string' },
      },
    }),
    { 429: 'TooManyRequests: too many wrong codes of this user.' },
  )
  @ApiBody({
    schema: {
      type: 'object',
      properties: {
        code: { type: 'string' },
        createDeviceToken: { type: 'boolean' },
      },
    },
  })
  complete(
    @Param('appKey') appKey: string,
    @Headers('authorization') authorization: string | undefined,
    @Body() body: unknown,
  ): Promise<KinveyDoc> {
    return this.login.complete(appKey, authorization, body);
  }
}
