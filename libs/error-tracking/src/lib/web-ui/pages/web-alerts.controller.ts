import { Body, Param, Post, Res } from '@nestjs/common';
import type { Response } from 'express';

import { AccessLevel } from '../../common/error-tracking.constants';
import { Params } from '../../http/params';
import { parseId } from '../../http/path-params';
import { WebProjectAt } from '../toolkit/project-access.pipe';
import type { ProjectAccess } from '../../projects/project.types';
import { backToMonitor } from '../toolkit/notices';
import {
  formField,
  validationProblemsOf,
  webCaller,
} from '../toolkit/web-caller';
import { MonitorPageRenderer } from './monitor-page.renderer';
import { Web } from '../toolkit/web-context';
import type { WebContext } from '../toolkit/web-context';
import { WebController } from '../toolkit/web-controller.decorator';
import { readAlertRules } from '../../alerts/alert-rules.params';
import type { AlertRules } from '../../alerting/alert.types';
import { AlertsService } from '../../alerts/alerts.service';

/** The section of Settings > Monitor these forms return to. */
const ALERTS = '#alerts';

/** The Alerts forms of Settings > Monitor. */
@WebController('projects/:id/settings/monitor')
export class WebAlertsController {
  constructor(
    private readonly alerts: AlertsService,
    private readonly monitorPage: MonitorPageRenderer,
  ) {}

  @Post('hooks')
  async addHook(
    @Web() ctx: WebContext,
    @WebProjectAt(AccessLevel.Maintainer) access: ProjectAccess,
    @Body() body: unknown,
    @Res() res: Response,
  ): Promise<void> {
    const url = formField(body, 'url', 2_048).trim();
    const errorTrackingEvents =
      formField(body, 'error_tracking_events') === 'true';
    try {
      await this.alerts.createHook(access, {
        url,
        token: formField(body, 'token', 255) || undefined,
        errorTrackingEvents,
      });
    } catch (error) {
      // The page again with what was typed and why it was refused; the
      // token is not sent back into the page.
      const problems = validationProblemsOf(error);
      res.status(422).send(
        await this.monitorPage.render(ctx, access, {
          hookForm: { url, errorTrackingEvents, problems },
        }),
      );
      return;
    }
    backToMonitor(res, access.project.id, 'hook-created', ALERTS);
  }

  @Post('hooks/:hook_id/delete')
  async deleteHook(
    @WebProjectAt(AccessLevel.Maintainer) access: ProjectAccess,
    @Param('hook_id') hookId: string,
    @Res() res: Response,
  ): Promise<void> {
    await this.alerts.deleteHook(access, parseId(hookId, 'Hook'));
    backToMonitor(res, access.project.id, 'hook-deleted', ALERTS);
  }

  @Post('hooks/:hook_id/test')
  async testHook(
    @WebProjectAt(AccessLevel.Maintainer) access: ProjectAccess,
    @Param('hook_id') hookId: string,
    @Res() res: Response,
  ): Promise<void> {
    const { delivered } = await this.alerts.test(
      access,
      parseId(hookId, 'Hook'),
    );
    backToMonitor(
      res,
      access.project.id,
      delivered ? 'hook-test-delivered' : 'hook-test-failed',
      ALERTS,
    );
  }

  @Post('alerts')
  async saveRules(
    @WebProjectAt(AccessLevel.Maintainer) access: ProjectAccess,
    @Body() body: unknown,
    @Res() res: Response,
  ): Promise<void> {
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
    backToMonitor(res, access.project.id, 'alert-rules-saved', ALERTS);
  }

  /** Every member who gets alert e-mails (developer and up) sets their own. */
  @Post('alert_email')
  async saveEmail(
    @Web() ctx: WebContext,
    @WebProjectAt(AccessLevel.Developer) access: ProjectAccess,
    @Body() body: unknown,
    @Res() res: Response,
  ): Promise<void> {
    await this.alerts.setOptOut(
      access,
      webCaller(ctx).user.id,
      formField(body, 'email_alerts') !== 'on',
    );
    backToMonitor(res, access.project.id, 'alert-email-saved', ALERTS);
  }
}
