import { Body, Controller, Get, Param, Post, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';

import { isPlainObject } from '../kinvey/kinvey-doc';
import { MarketplaceError } from '../common/marketplace.errors';
import { AccountActionsService } from './account-actions.service';
import {
  PAGE_HEADERS,
  PASSWORD_FIELD,
  TOKEN,
  form,
  message,
} from './account-page';
import type { AccountTokenKind } from './account-tokens.repository';

const EXPIRED =
  'This link has expired or was already used. Ask for a new one from the app.';

function field(body: unknown, name: string): string {
  const value = isPlainObject(body) ? body[name] : undefined;
  return typeof value === 'string' ? value : '';
}

const TITLES: Record<AccountTokenKind, string> = {
  'password-reset': 'Reset your password',
  'email-verification': 'Confirm your e-mail address',
};

function send(res: Response, status: number, html: string): void {
  res.status(status).set(PAGE_HEADERS).send(html);
}

/** The pages mailed links open: the token in the link authorises them. */
@ApiExcludeController()
@Controller('account/:appKey')
export class AccountPagesController {
  constructor(private readonly actions: AccountActionsService) {}

  /** The form of a live link; else the page saying it no longer works. */
  private async showForm(
    kind: AccountTokenKind,
    appKey: string,
    token: unknown,
    res: Response,
    fields: string,
    button: string,
  ): Promise<void> {
    const live =
      typeof token === 'string' &&
      TOKEN.test(token) &&
      (await this.actions.isLive(kind, appKey, token));
    if (!live) return send(res, 400, message(TITLES[kind], EXPIRED));
    send(res, 200, form(TITLES[kind], token, fields, button));
  }

  @Get('password-reset')
  resetForm(
    @Param('appKey') appKey: string,
    @Query('token') token: unknown,
    @Res() res: Response,
  ): Promise<void> {
    return this.showForm(
      'password-reset',
      appKey,
      token,
      res,
      PASSWORD_FIELD,
      'Set password',
    );
  }

  @Post('password-reset')
  async reset(
    @Param('appKey') appKey: string,
    @Body() body: unknown,
    @Res() res: Response,
  ): Promise<void> {
    const token = field(body, 'token');
    if (!TOKEN.test(token))
      return send(res, 400, message(TITLES['password-reset'], EXPIRED));
    try {
      const done = await this.actions.completePasswordReset(
        appKey,
        token,
        field(body, 'password'),
      );
      if (!done)
        return send(res, 400, message(TITLES['password-reset'], EXPIRED));
    } catch (error) {
      if (!(error instanceof MarketplaceError)) throw error;
      return send(
        res,
        400,
        form(
          TITLES['password-reset'],
          token,
          `<p>The password must be 8 to 256 characters.</p>${PASSWORD_FIELD}`,
          'Set password',
        ),
      );
    }
    send(
      res,
      200,
      message(
        'Password changed',
        'Your password is changed and every session signed out. Sign in again in the app.',
      ),
    );
  }

  @Get('verify-email')
  verifyForm(
    @Param('appKey') appKey: string,
    @Query('token') token: unknown,
    @Res() res: Response,
  ): Promise<void> {
    // A button, not the GET itself: mail scanners open links on their own.
    return this.showForm(
      'email-verification',
      appKey,
      token,
      res,
      '',
      'Confirm',
    );
  }

  @Post('verify-email')
  async verify(
    @Param('appKey') appKey: string,
    @Body() body: unknown,
    @Res() res: Response,
  ): Promise<void> {
    const done = await this.actions.completeEmailVerification(
      appKey,
      field(body, 'token'),
    );
    if (!done)
      return send(res, 400, message(TITLES['email-verification'], EXPIRED));
    send(
      res,
      200,
      message('Address confirmed', 'Your e-mail address is confirmed.'),
    );
  }
}
