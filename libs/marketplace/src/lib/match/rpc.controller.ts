import {
  Body,
  Controller,
  HttpCode,
  Param,
  Post,
  UseGuards,
} from '@nestjs/common';
import {
  ApiBody,
  ApiExcludeEndpoint,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';

import { Caller, KinveyAuthGuard } from '../auth/kinvey-auth.guard';
import type { Principal } from '../auth/principal';
import { noContent, ok, KinveyCall } from '../http/kinvey-api.decorators';
import { MatchService } from './match.service';
import { MarketplaceError } from '../marketplace.errors';

/** Kinvey calls that send e-mail, which this server does not. */
function NeedsEmail(): MethodDecorator {
  return KinveyCall(
    'FeatureUnavailable (needs e-mail)',
    'app',
    noContent(
      "Kinvey's answer where e-mail is set up; this server sends no e-mail and always answers 400 FeatureUnavailable.",
    ),
  );
}

@ApiTags('marketplace: rpc')
@Controller('rpc/:appKey')
export class RpcController {
  constructor(private readonly matching: MatchService) {}

  @Post('custom/match')
  @UseGuards(KinveyAuthGuard)
  @HttpCode(200)
  @KinveyCall(
    "Offers of other producers (both layouts, not canceled) for a producer's needs ({id_producer}) or given items ({required}), cheapest first",
    'user or master',
    ok(
      { type: 'array', items: { type: 'object', additionalProperties: true } },
      'Matching offers, cheapest first.',
    ),
  )
  @ApiBody({
    schema: {
      type: 'object',
      properties: {
        id_producer: { type: 'string' },
        required: { type: 'array', items: { type: 'object' } },
      },
    },
  })
  match(
    @Caller() principal: Principal,
    @Body() body: unknown,
  ): Promise<unknown> {
    return this.matching.match(principal, body);
  }

  @Post('custom/:name')
  @UseGuards(KinveyAuthGuard)
  // Not an operation of its own: it only answers names no route above has.
  @ApiExcludeEndpoint()
  unknownEndpoint(@Param('name') name: string): never {
    throw MarketplaceError.endpointNotFound(name);
  }

  @Post('user-forgot-username')
  @NeedsEmail()
  async forgotUsername(): Promise<never> {
    throw MarketplaceError.needsInfrastructure('Forgot username');
  }

  @Post(':username/user-password-reset-initiate')
  @ApiParam({ name: 'username' })
  @NeedsEmail()
  async passwordReset(): Promise<never> {
    throw MarketplaceError.needsInfrastructure('Password reset');
  }

  @Post(':username/user-email-verification-initiate')
  @ApiParam({ name: 'username' })
  @NeedsEmail()
  async emailVerification(): Promise<never> {
    throw MarketplaceError.needsInfrastructure('E-mail verification');
  }
}
