import {
  Body,
  Controller,
  HttpCode,
  Param,
  Post,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import {
  ApiBody,
  ApiExcludeEndpoint,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';

import { Caller, KinveyAuthGuard } from '../auth/kinvey-auth.guard';
import type { Principal } from '../auth/principal';
import { noContent, ok, KinveyCall } from '../http/kinvey-api.decorators';
import { AccountActionsService } from '../accounts/account-actions.service';
import { MatchService } from './match.service';
import { MarketplaceError } from '../common/marketplace.errors';
import { requireUserOrMaster } from '../auth/access';
import { FlexFunctionsService } from '../business-logic/flex-functions.service';

/** Kinvey calls that send e-mail: 400 FeatureUnavailable without SMTP or PUBLIC_BASE_URL. */
function AccountMail(summary: string, auth: string): MethodDecorator {
  return KinveyCall(summary, auth, noContent('Mailed (or nothing to mail).'), {
    400: 'FeatureUnavailable: no SMTP or no PUBLIC_BASE_URL is configured.',
  });
}

@ApiTags('marketplace: rpc')
@Controller('rpc/:appKey')
export class RpcController {
  constructor(
    private readonly matching: MatchService,
    private readonly accounts: AccountActionsService,
    private readonly functions: FlexFunctionsService,
  ) {}

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
  // Left out of the OpenAPI document: `custom/{name}` and the user calls'
  // `{username}/user-...` match the same paths there. docs/marketplace.md
  // describes it (the app's endpoints on its Flex services).
  @ApiExcludeEndpoint()
  async customEndpoint(
    @Caller() principal: Principal,
    @Param('name') name: string,
    @Body() body: unknown,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<unknown> {
    requireUserOrMaster(principal);
    const reply = await this.functions.endpoint(principal, req, name, body);
    if (!reply) throw MarketplaceError.endpointNotFound(name);
    res.status(reply.status);
    for (const [header, value] of Object.entries(reply.headers))
      res.setHeader(header, value);
    return reply.body;
  }

  @Post('user-forgot-username')
  @UseGuards(KinveyAuthGuard)
  @HttpCode(204)
  @AccountMail(
    'Mail the usernames registered with {email} (none: no mail)',
    'app or master',
  )
  @ApiBody({
    schema: { type: 'object', properties: { email: { type: 'string' } } },
  })
  forgotUsername(
    @Caller() principal: Principal,
    @Body() body: unknown,
  ): Promise<void> {
    return this.accounts.forgotUsername(principal, body);
  }

  @Post('send-email')
  @UseGuards(KinveyAuthGuard)
  @HttpCode(200)
  @KinveyCall(
    "Queue an e-mail of the app's business logic (a Flex service's modules.email): plain text to one address, from the configured sender, within the app's mail limits",
    'master',
    ok(
      {
        type: 'object',
        properties: { mailServerResponse: { type: 'string' } },
      },
      'Queued.',
    ),
    {
      400: 'FeatureUnavailable: no SMTP, or cc, bcc or html given.',
      429: "TooManyRequests: the app's mail limits for the hour.",
    },
  )
  @ApiBody({
    schema: {
      type: 'object',
      properties: {
        to: { type: 'string' },
        subject: { type: 'string' },
        body: { type: 'string' },
      },
      required: ['to', 'subject', 'body'],
    },
  })
  async sendEmail(
    @Caller() principal: Principal,
    @Body() body: unknown,
  ): Promise<{ mailServerResponse: string }> {
    await this.accounts.sendAppEmail(principal, body);
    return { mailServerResponse: 'queued' };
  }

  @Post(':username/user-password-reset-initiate')
  @UseGuards(KinveyAuthGuard)
  @HttpCode(204)
  @ApiParam({ name: 'username' })
  @AccountMail(
    'Mail a single-use link to set a new password (204 whether or not the user exists)',
    'app or master',
  )
  passwordReset(
    @Caller() principal: Principal,
    @Param('username') username: string,
  ): Promise<void> {
    return this.accounts.initiatePasswordReset(principal, username);
  }

  @Post(':username/user-email-verification-initiate')
  @UseGuards(KinveyAuthGuard)
  @HttpCode(204)
  @ApiParam({ name: 'username' })
  @AccountMail(
    'Mail a single-use link confirming the address (then _kmd.emailVerification)',
    'app, master or that user',
  )
  emailVerification(
    @Caller() principal: Principal,
    @Param('username') username: string,
  ): Promise<void> {
    return this.accounts.initiateEmailVerification(principal, username);
  }
}
