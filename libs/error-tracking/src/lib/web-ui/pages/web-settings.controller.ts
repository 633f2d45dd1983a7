import { Body, Get, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';

import { AccessLevel } from '../../common/error-tracking.constants';
import { parseId } from '../../http/path-params';
import { WebProjectAt } from '../toolkit/project-access.pipe';
import type { ProjectAccess } from '../../projects/project.types';
import { backToMonitor } from '../toolkit/notices';
import { formField } from '../toolkit/web-caller';
import { MonitorPageRenderer } from './monitor-page.renderer';
import { Web } from '../toolkit/web-context';
import type { WebContext } from '../toolkit/web-context';
import { WebController } from '../toolkit/web-controller.decorator';
import { SettingsService } from '../../settings/settings.service';

/** Settings > Monitor: the page, tracking and client keys. */
@WebController()
export class WebSettingsController {
  constructor(
    private readonly settings: SettingsService,
    private readonly monitorPage: MonitorPageRenderer,
  ) {}

  @Get('/projects/:id/settings/monitor')
  monitor(
    @Web() ctx: WebContext,
    @WebProjectAt(AccessLevel.Developer) access: ProjectAccess,
    @Query('notice') notice: unknown,
  ): Promise<string> {
    return this.monitorPage.render(ctx, access, { notice });
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
}
