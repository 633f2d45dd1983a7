import { Body, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger';

import { Caller } from '../auth/kinvey-auth.guard';
import { KinveyController } from '../auth/kinvey-controller.decorator';
import type { Principal } from '../auth/principal';
import { KinveyCall, noContent, ok } from '../http/kinvey-api.decorators';
import { AuthenticatorsService } from './authenticators.service';
import type { NewAuthenticator } from './authenticators.service';
import type { AuthenticatorSummary } from './mfa.repository';

const AUTHENTICATOR: SchemaObject = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    type: { type: 'string', enum: ['totp'] },
  },
};
const RECOVERY_CODES: SchemaObject = {
  type: 'object',
  properties: { recoveryCodes: { type: 'array', items: { type: 'string' } } },
};
const CODE_BODY = {
  schema: { type: 'object', properties: { code: { type: 'string' } } },
};
const WHO = 'that user or master';

/** Kinvey's MFA management of one user: authenticators, recovery codes. */
@KinveyController('user/:appKey', 'marketplace: users')
export class AuthenticatorsController {
  constructor(private readonly authenticators: AuthenticatorsService) {}

  @Post(':id/authenticators')
  @HttpCode(201)
  @KinveyCall(
    'Add a TOTP authenticator (counts once verified); the reply carries its secret, once',
    WHO,
    ok(
      {
        ...AUTHENTICATOR,
        properties: {
          ...AUTHENTICATOR.properties,
          config: {
            type: 'object',
            properties: { secret: { type: 'string' } },
          },
        },
      },
      'The authenticator and its base32 secret.',
      201,
    ),
  )
  @ApiBody({
    schema: {
      type: 'object',
      properties: { name: { type: 'string' }, type: { type: 'string' } },
    },
  })
  create(
    @Caller() principal: Principal,
    @Param('id') id: string,
    @Body() body: unknown,
  ): Promise<NewAuthenticator> {
    return this.authenticators.create(principal, id, body);
  }

  @Post(':id/authenticators/:authenticatorId/verify')
  @HttpCode(200)
  @KinveyCall(
    'Verify an authenticator with a current code; the first one verified brings recovery codes',
    WHO,
    ok(RECOVERY_CODES, '`recoveryCodes` when these are the first.'),
    { 429: 'TooManyRequests: too many wrong codes of this user.' },
  )
  @ApiBody(CODE_BODY)
  verify(
    @Caller() principal: Principal,
    @Param('id') id: string,
    @Param('authenticatorId') authenticatorId: string,
    @Body() body: unknown,
  ): Promise<{ recoveryCodes?: string[] }> {
    return this.authenticators.verify(principal, id, authenticatorId, body);
  }

  @Get(':id/authenticators')
  @KinveyCall(
    'The verified authenticators',
    WHO,
    ok({ type: 'array', items: AUTHENTICATOR }),
  )
  list(
    @Caller() principal: Principal,
    @Param('id') id: string,
  ): Promise<AuthenticatorSummary[]> {
    return this.authenticators.list(principal, id);
  }

  @Delete(':id/authenticators/:authenticatorId')
  @HttpCode(204)
  @KinveyCall(
    'Remove an authenticator (the last one turns MFA off)',
    WHO,
    noContent(),
  )
  remove(
    @Caller() principal: Principal,
    @Param('id') id: string,
    @Param('authenticatorId') authenticatorId: string,
  ): Promise<void> {
    return this.authenticators.remove(principal, id, authenticatorId);
  }

  @Get(':id/recovery-codes')
  @KinveyCall(
    'The recovery codes not used yet, in the order they were made',
    WHO,
    ok(RECOVERY_CODES),
  )
  listRecoveryCodes(
    @Caller() principal: Principal,
    @Param('id') id: string,
  ): Promise<{ recoveryCodes: string[] }> {
    return this.authenticators.listRecoveryCodes(principal, id);
  }

  @Post(':id/recovery-codes')
  @HttpCode(200)
  @KinveyCall(
    'New recovery codes (the old ones stop working)',
    WHO,
    ok(RECOVERY_CODES),
  )
  regenerate(
    @Caller() principal: Principal,
    @Param('id') id: string,
  ): Promise<{ recoveryCodes: string[] }> {
    return this.authenticators.regenerateRecoveryCodes(principal, id);
  }
}
