import { Body, Controller, Param, Post, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';

import { readAlertRules } from '../alerts/alert-rules.params';
import type { AlertRules } from '../alerts/alert.types';
import { AlertsService } from '../alerts/alerts.service';
import { AccessLevel } from '../error-tracking.constants';
import { Params } from '../http/params';
import { parseId } from '../http/path-params';
import { ProjectAccessService } from '../projects/project-access.service';
import type { ProjectAccess } from '../projects/project.types';
import { withNotice } from './notices';
import type { NoticeKey } from './notices';
import { formField, webCaller, webProjectAccess } from './web-caller';
import { Web } from './web-context';
import type { WebContext } from './web-context';

/** The Alerts forms of Settings > Monitor. */
@ApiExcludeController()
@Controller('projects/:id/settings/monitor')
export class WebAlertsController {
  constructor(
    private readonly alerts: AlertsService,
    private readonly access: ProjectAccessService,
  ) {}

  @Post('hooks')
  addHook(
    @Web() ctx: WebContext,
    @Param('id') id: string,
    @Body() body: unknown,
    @Res() res: Response,
  ): Promise<void> {
    return this.act(ctx, id, res, AccessLevel.Maintainer, async (access) => {
      await this.alerts.createHook(access, {
        url: formField(body, 'url', 2_048).trim(),
        token: formField(body, 'token', 255) || undefined,
        errorTrackingEvents:
          formField(body, 'error_tracking_events') === 'true',
      });
      return 'hook-created';
    });
  }

  @Post('hooks/:hook_id/delete')
  deleteHook(
    @Web() ctx: WebContext,
    @Param('id') id: string,
    @Param('hook_id') hookId: string,
    @Res() res: Response,
  ): Promise<void> {
    return this.act(ctx, id, res, AccessLevel.Maintainer, async (access) => {
      await this.alerts.deleteHook(access, parseId(hookId, 'Hook'));
      return 'hook-deleted';
    });
  }

  @Post('hooks/:hook_id/test')
  testHook(
    @Web() ctx: WebContext,
    @Param('id') id: string,
    @Param('hook_id') hookId: string,
    @Res() res: Response,
  ): Promise<void> {
    return this.act(ctx, id, res, AccessLevel.Maintainer, async (access) =>
      (await this.alerts.test(access, parseId(hookId, 'Hook'))).delivered
        ? 'hook-test-delivered'
        : 'hook-test-failed',
    );
  }

  @Post('alerts')
  saveRules(
    @Web() ctx: WebContext,
    @Param('id') id: string,
    @Body() body: unknown,
    @Res() res: Response,
  ): Promise<void> {
    return this.act(ctx, id, res, AccessLevel.Maintainer, async (access) => {
      const fields = {
        frequent_threshold: formField(body, 'frequent_threshold', 20).trim(),
        frequent_window_minutes: formField(
          body,
          'frequent_window_minutes',
          20,
        ).trim(),
      };
      const params = new Params(fields);
      const rules = readAlertRules(params, fields);
      params.check();
      await this.alerts.setRules(access, rules as AlertRules);
      return 'alert-rules-saved';
    });
  }

  /** Every member who gets alert e-mails (developer and up) sets their own. */
  @Post('alert_email')
  saveEmail(
    @Web() ctx: WebContext,
    @Param('id') id: string,
    @Body() body: unknown,
    @Res() res: Response,
  ): Promise<void> {
    return this.act(ctx, id, res, AccessLevel.Developer, async (access) => {
      await this.alerts.setOptOut(
        access,
        webCaller(ctx).user.id,
        formField(body, 'email_alerts') !== 'on',
      );
      return 'alert-email-saved';
    });
  }

  private async act(
    ctx: WebContext,
    id: string,
    res: Response,
    minimum: AccessLevel,
    change: (access: ProjectAccess) => Promise<NoticeKey>,
  ): Promise<void> {
    const access = await webProjectAccess(this.access, ctx, id, minimum);
    const notice = await change(access);
    res.redirect(
      303,
      `${withNotice(`/projects/${access.project.id}/settings/monitor`, notice)}#alerts`,
    );
  }
}
