import { Body, Get, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';

import {
  SESSION_COOKIE,
  safeRedirectPath,
  serializeCookie,
} from '../toolkit/cookies';
import { WebSessionsService } from '../../sessions/web-sessions.service';
import { signInPage } from './sign-in.page';
import { formField } from '../toolkit/web-caller';
import { Web } from '../toolkit/web-context';
import type { WebContext } from '../toolkit/web-context';
import { WebController } from '../toolkit/web-controller.decorator';
import { SIGN_IN_PATH } from '../toolkit/web-paths';

/** Sign-in and sign-out of the web UI. */
@WebController()
export class WebSessionController {
  constructor(private readonly sessions: WebSessionsService) {}

  @Get(SIGN_IN_PATH)
  signInForm(
    @Web() ctx: WebContext,
    @Query('redirect_to') redirectTo: unknown,
    @Query('notice') notice: unknown,
    @Res() res: Response,
  ): void {
    const target = safeRedirectPath(redirectTo);
    if (ctx.session) {
      res.redirect(302, target);
      return;
    }
    res.send(signInPage(ctx, { redirectTo: target, notice }));
  }

  @Post(SIGN_IN_PATH)
  async signIn(
    @Web() ctx: WebContext,
    @Body() body: Record<string, unknown>,
    @Res() res: Response,
  ): Promise<void> {
    const username = formField(body, 'username', 255);
    const redirectTo = safeRedirectPath(body['redirect_to']);
    const result = await this.sessions.signIn(
      username,
      formField(body, 'password'),
    );
    if (result.kind !== 'signed-in') {
      const error =
        result.kind === 'throttled'
          ? `Too many failed attempts for this username. Try again in ${result.retryAfterSeconds} seconds.`
          : 'Invalid username or password.';
      if (result.kind === 'throttled')
        res.setHeader('Retry-After', String(result.retryAfterSeconds));
      res
        .status(result.kind === 'throttled' ? 429 : 401)
        .send(signInPage(ctx, { username, redirectTo, error }));
      return;
    }
    res.setHeader(
      'Set-Cookie',
      serializeCookie(SESSION_COOKIE, result.session.id, {
        secure: ctx.secure,
        maxAgeSeconds: this.sessions.ttlSeconds,
      }),
    );
    res.redirect(303, redirectTo);
  }

  @Post('/users/sign_out')
  async signOut(@Web() ctx: WebContext, @Res() res: Response): Promise<void> {
    if (ctx.session) await this.sessions.signOut(ctx.session.id);
    res.setHeader(
      'Set-Cookie',
      serializeCookie(SESSION_COOKIE, '', {
        secure: ctx.secure,
        maxAgeSeconds: 0,
      }),
    );
    res.redirect(303, SIGN_IN_PATH);
  }
}
