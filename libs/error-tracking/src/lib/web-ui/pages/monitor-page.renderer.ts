import { Inject, Injectable } from '@nestjs/common';
import { CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { AlertsService } from '../../alerts/alerts.service';
import { AccessLevel } from '../../common/error-tracking.constants';
import { dsnOf } from '../../http/base-url';
import type { ProjectAccess } from '../../projects/project.types';
import { SettingsService } from '../../settings/settings.service';
import { webCaller } from '../toolkit/web-caller';
import type { WebContext } from '../toolkit/web-context';
import type { AlertsView, HookFormState } from './monitor-alerts.view';
import { monitorSettingsPage } from './monitor-settings.page';

/** Deliveries of each hook shown on the settings page. */
const RECENT_DELIVERIES = 10;

/**
 * Settings > Monitor with its data: shown by its own route and again by a
 * form of the page that was refused, with what was typed.
 */
@Injectable()
export class MonitorPageRenderer {
  constructor(
    private readonly settings: SettingsService,
    private readonly alerts: AlertsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async render(
    ctx: WebContext,
    access: ProjectAccess,
    state: { notice?: unknown; hookForm?: HookFormState } = {},
  ): Promise<string> {
    // Developers see only their own alert e-mail choice; the rest is maintainers'.
    const maintainer = access.accessLevel >= AccessLevel.Maintainer;
    const base = ctx.baseUrl();
    const { keys } = maintainer
      ? await this.settings.listKeys(access, 100, 0)
      : { keys: [] };
    const active = keys.filter((key) => key.active);
    return monitorSettingsPage(ctx, {
      alerts: {
        ...(await this.alertsView(ctx, access, maintainer)),
        hookForm: state.hookForm,
      },
      project: access.project,
      accessLevel: access.accessLevel,
      keys: active.map((key) => ({
        key,
        dsn: dsnOf(base, key.publicKey, access.project.id),
      })),
      dsn: active[0]
        ? dsnOf(base, active[0].publicKey, access.project.id)
        : undefined,
      notice: state.notice,
    });
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
