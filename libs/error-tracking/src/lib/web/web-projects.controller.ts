import {
  Body,
  Controller,
  Get,
  Inject,
  Param,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';
import type { Request, Response } from 'express';

import {
  AccessLevel,
  ERROR_TRACKING_OPTIONS,
} from '../error-tracking.constants';
import {
  ErrorTrackingError,
  ErrorTrackingErrorCode,
} from '../error-tracking.errors';
import type { ErrorTrackingModuleOptions } from '../error-tracking.options';
import { baseUrlOf, dsnOf } from '../http/base-url';
import { parseId } from '../http/path-params';
import { AlertsService } from '../alerts/alerts.service';
import type { ProjectAccess } from '../projects/project.types';
import { ProjectsService } from '../projects/projects.service';
import { SettingsService } from '../settings/settings.service';
import { backToMonitor, withNotice } from './notices';
import type { AlertsView } from './pages/monitor-alerts.view';
import { monitorSettingsPage } from './pages/monitor-settings.page';
import { projectsPage } from './pages/projects.page';
import { WebProjectAt, formField, webCaller } from './web-caller';
import { Web } from './web-context';
import type { WebContext } from './web-context';

/** Deliveries of each hook shown on the settings page. */
const RECENT_DELIVERIES = 10;

/** Projects list, project creation, Settings > Monitor. */
@ApiExcludeController()
@Controller()
export class WebProjectsController {
  constructor(
    private readonly projects: ProjectsService,
    private readonly settings: SettingsService,
    private readonly alerts: AlertsService,
    @Inject(ERROR_TRACKING_OPTIONS)
    private readonly options: ErrorTrackingModuleOptions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('/')
  async home(
    @Web() ctx: WebContext,
    @Query('notice') notice: unknown,
  ): Promise<string> {
    const { projects, total } = await this.projects.list(
      webCaller(ctx),
      100,
      0,
    );
    return projectsPage(ctx, {
      projects,
      total,
      now: this.clock.now(),
      notice,
    });
  }

  @Post('/projects')
  async create(
    @Web() ctx: WebContext,
    @Body() body: unknown,
    @Res() res: Response,
  ): Promise<void> {
    const caller = webCaller(ctx);
    const name = formField(body, 'name', 255).trim();
    try {
      if (!name)
        throw ErrorTrackingError.validation({ name: ["can't be blank"] });
      const project = await this.projects.create(caller, { name });
      res.redirect(
        303,
        withNotice(
          `/projects/${project.id}/settings/monitor`,
          'project-created',
        ),
      );
    } catch (error) {
      if (
        !(error instanceof ErrorTrackingError) ||
        error.code !== ErrorTrackingErrorCode.ValidationFailed
      )
        throw error;
      const fields = error.details['fields'] as Record<string, string[]>;
      const message = Object.entries(fields)
        .map(
          ([field, problems]) =>
            `${field === 'path' ? 'Path' : 'Name'} ${problems.join(', ')}`,
        )
        .join('. ');
      const { projects, total } = await this.projects.list(caller, 100, 0);
      res.status(422).send(
        projectsPage(ctx, {
          projects,
          total,
          now: this.clock.now(),
          name,
          error: message,
        }),
      );
    }
  }

  @Get('/projects/:id')
  async project(
    @WebProjectAt(AccessLevel.Guest) access: ProjectAccess,
    @Res() res: Response,
  ): Promise<void> {
    res.redirect(302, `/projects/${access.project.id}/error_tracking`);
  }

  @Get('/projects/:id/settings/monitor')
  async monitor(
    @Web() ctx: WebContext,
    @WebProjectAt(AccessLevel.Developer) access: ProjectAccess,
    @Query('notice') notice: unknown,
    @Req() req: Request,
  ): Promise<string> {
    // Developers see only their own alert e-mail choice; the rest is maintainers'.
    const maintainer = access.accessLevel >= AccessLevel.Maintainer;
    const base = baseUrlOf(req, this.options);
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
    await this.settings.update(access, active, true);
    backToMonitor(res, access, 'settings-saved');
  }

  @Post('/projects/:id/settings/monitor/client_keys')
  async createKey(
    @WebProjectAt(AccessLevel.Maintainer) access: ProjectAccess,
    @Res() res: Response,
  ): Promise<void> {
    await this.settings.createKey(access);
    backToMonitor(res, access, 'key-created');
  }

  @Post('/projects/:id/settings/monitor/client_keys/:key_id/delete')
  async deleteKey(
    @WebProjectAt(AccessLevel.Maintainer) access: ProjectAccess,
    @Param('key_id') keyId: string,
    @Res() res: Response,
  ): Promise<void> {
    await this.settings.deleteKey(access, parseId(keyId, 'Client key'));
    backToMonitor(res, access, 'key-deleted');
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
