import { Body, Get, Inject, Post, Query, Res } from '@nestjs/common';
import { CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';
import type { Response } from 'express';

import { AccessLevel } from '../../common/error-tracking.constants';
import { ErrorTrackingError } from '../../common/error-tracking.errors';
import { withNotice } from '../toolkit/notices';
import {
  formField,
  validationProblemsOf,
  webCaller,
} from '../toolkit/web-caller';
import { Web } from '../toolkit/web-context';
import type { WebContext } from '../toolkit/web-context';
import { WebController } from '../toolkit/web-controller.decorator';
import { WebProjectAt } from '../toolkit/project-access.pipe';
import type { ProjectAccess } from '../../projects/project.types';
import { projectsPage } from './projects.page';
import { ProjectsService } from '../../projects/projects.service';

/** Projects list, project creation, a project's home. */
@WebController()
export class WebProjectsController {
  constructor(
    private readonly projects: ProjectsService,
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
      const fields = validationProblemsOf(error);
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
}
