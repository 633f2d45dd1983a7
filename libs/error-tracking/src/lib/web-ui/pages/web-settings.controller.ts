import { Body, Get, Inject, Param, Post, Query, Res } from '@nestjs/common';
import { CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';
import type { Response } from 'express';

import { AlertsService } from '../../alerts/alerts.service';
import type { AlertsView } from './monitor-alerts.view';
import { AccessLevel } from '../../common/error-tracking.constants';
import { dsnOf } from '../../http/base-url';
import { parseId } from '../../http/path-params';
import { WebProjectAt } from '../toolkit/project-access.pipe';
import type { ProjectAccess } from '../../projects/project.types';
import { backToMonitor } from '../toolkit/notices';
import { formField, webCaller } from '../toolkit/web-caller';
import { Web } from '../toolkit/web-context';
import type { WebContext } from '../toolkit/web-context';
import { WebController } from '../toolkit/web-controller.decorator';
import { monitorSettingsPage } from './monitor-settings.page';
import { SettingsService } from '../../settings/settings.service';

/** Deliveries of each hook shown on the settings page. */
const RECENT_DELIVERIES = 10;

/** Settings > Monitor: tracking, client keys, and the Alerts section's data. */
@WebController()
export class WebSettingsController {
  constructor(
    private readonly settings: SettingsService,
    private readonly alerts: AlertsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('/projects/:id/settings/monitor')
  async monitor(
    @Web() ctx: WebContext,
    @WebProjectAt(AccessLevel.Developer) access: ProjectAccess,
    @Query('notice') notice: unknown,
  ): Promise<string> {
    // Developers see only their own alert e-mail choice; the rest is maintainers'.
    const maintainer = access.accessLevel >= AccessLevel.Maintainer;
    const base = ctx.baseUrl();
    const { keys } = maintainer
      ? await this.settings.listKeys(access, 100, 0)
      : { keys: [] };
    const active = keys.filter((key) => key.active);
    return monitorSettingsPage(ctx, {
      alerts: await this.alertsView(ctx, access, maintainer),
      project: access.project,
      accessLevel: access.accessLevel,
      keys: active.map((key) => ({
        key,
        dsn: dsnOf(base, key.publicKey, access.project.id),
      })),
      dsn: active[0]
        ? dsnOf(base, active[0].publicKey, access.project.id)
        : undefined,
      notice,
    });
  }

  @Post('/projects/:id/settings/monitor')
  async saveMonitor(
    @WebProjectAt(AccessLevel.Maintainer) access: ProjectAccess,
    @Body() body: unknown,
    @Res() res: Response,
  ): Promise<void> {
    // Integrated is the only backend this platform has.
    const active = formField(body, 'active') === 'true';
    await this.settings.update(access, { active, integrated: true });
    backToMonitor(res, access.project.id, 'settings-saved');
  }

  @Post('/projects/:id/settings/monitor/client_keys')
  async createKey(
    @WebProjectAt(AccessLevel.Maintainer) access: ProjectAccess,
    @Res() res: Response,
  ): Promise<void> {
    await this.settings.createKey(access);
    backToMonitor(res, access.project.id, 'key-created');
  }

  @Post('/projects/:id/settings/monitor/client_keys/:key_id/delete')
  async deleteKey(
    @WebProjectAt(AccessLevel.Maintainer) access: ProjectAccess,
    @Param('key_id') keyId: string,
    @Res() res: Response,
  ): Promise<void> {
    await this.settings.deleteKey(access, parseId(keyId, 'Client key'));
    backToMonitor(res, access.project.id, 'key-deleted');
  }

  private async alertsView(
    ctx: WebContext,
    access: ProjectAccess,
    maintainer: boolean,
  ): Promise<AlertsView> {
    const userId = webCaller(ctx).user.id;
    const hooks = maintainer ? await this.alerts.listHooks(access) : undefined;
    return {
      hooks: hooks
        ? await Promise.all(
            hooks.map(async (hook) => ({
              hook,
              attempts: (
                await this.alerts.attempts(access, hook.id, RECENT_DELIVERIES)
              ).attempts,
            })),
          )
        : undefined,
      rules: maintainer ? await this.alerts.rules(access) : undefined,
      emailEnabled: this.alerts.emailEnabled,
      optedOut: await this.alerts.isOptedOut(access, userId),
      now: this.clock.now(),
    };
  }
}
