import { Body, Get, Inject, Post, Res } from '@nestjs/common';
import { CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';
import type { Response } from 'express';

import { AccountsService } from '../../accounts/accounts.service';
import { newPasswordPage } from './new-password.page';
import { withNotice } from '../toolkit/notices';
import { SESSION_COOKIE, serializeCookie } from '../toolkit/cookies';
import {
  formField,
  validationProblemsOf,
  webCaller,
} from '../toolkit/web-caller';
import { Web, mustChangePassword } from '../toolkit/web-context';
import type { WebContext } from '../toolkit/web-context';
import { WebController } from '../toolkit/web-controller.decorator';
import {
  NEW_PASSWORD_PATH,
  PASSWORD_PATH,
  SIGN_IN_PATH,
} from '../toolkit/web-paths';

/**
 * The password a user must replace before anything else (root's generated
 * first-boot one), as GitLab's `/-/profile/password/new`. Others have
 * nothing to do here.
 */
@WebController()
export class WebPasswordController {
  constructor(
    private readonly accounts: AccountsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get(NEW_PASSWORD_PATH)
  form(@Web() ctx: WebContext, @Res() res: Response): void {
    if (!mustChangePassword(ctx.session, this.clock.now())) {
      res.redirect(302, '/');
      return;
    }
    res.send(newPasswordPage(ctx, {}));
  }

  @Post(PASSWORD_PATH)
  async change(
    @Web() ctx: WebContext,
    @Body() body: unknown,
    @Res() res: Response,
  ): Promise<void> {
    const { user } = webCaller(ctx);
    if (!mustChangePassword(ctx.session, this.clock.now())) {
      res.redirect(303, '/');
      return;
    }
    try {
      await this.accounts.changeOwnPassword(user, {
        current: formField(body, 'current_password'),
        password: formField(body, 'password'),
        confirmation: formField(body, 'password_confirmation'),
      });
    } catch (error) {
      const problems = validationProblemsOf(error);
      res.status(422).send(newPasswordPage(ctx, { problems }));
      return;
    }
    // The change ended every session of the user, this one included.
    res.setHeader(
      'Set-Cookie',
      serializeCookie(SESSION_COOKIE, '', {
        secure: ctx.secure,
        maxAgeSeconds: 0,
      }),
    );
    res.redirect(303, withNotice(SIGN_IN_PATH, 'password-changed'));
  }
}
