import { Body, Get, Inject, Param, Post, Query, Res } from '@nestjs/common';
import { CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';
import type { Response } from 'express';

import { AccessLevel } from '../../common/error-tracking.constants';
import { ErrorTrackingError } from '../../common/error-tracking.errors';
import { parseId } from '../../http/path-params';
import { WebProjectAt } from '../toolkit/project-access.pipe';
import type { ProjectAccess } from '../../projects/project.types';
import { withNotice } from '../toolkit/notices';
import { formField } from '../toolkit/web-caller';
import { Web } from '../toolkit/web-context';
import type { WebContext } from '../toolkit/web-context';
import { WebController } from '../toolkit/web-controller.decorator';
import { issueListPage, issuePage } from './issues.page';
import type { IssueStateFilter } from './issues.page';
import { IssuesService } from '../../issues/issues.service';

const PER_PAGE = 20;

/** The project's issues and one issue with close / reopen. */
@WebController('projects/:id/issues')
export class WebIssuesController {
  constructor(
    private readonly issues: IssuesService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  async list(
    @Web() ctx: WebContext,
    @WebProjectAt(AccessLevel.Reporter) access: ProjectAccess,
    @Query('state') stateParam: unknown,
    @Query('page') pageParam: unknown,
  ): Promise<string> {
    const state: IssueStateFilter =
      stateParam === 'closed' || stateParam === 'all' ? stateParam : 'opened';
    const pageNo =
      typeof pageParam === 'string' && /^\d{1,5}$/.test(pageParam)
        ? Math.max(1, Number(pageParam))
        : 1;
    const { issues, total } = await this.issues.list(
      access,
      state === 'all' ? undefined : state,
      PER_PAGE,
      (pageNo - 1) * PER_PAGE,
    );
    return issueListPage(ctx, {
      project: access.project,
      accessLevel: access.accessLevel,
      state,
      issues,
      total,
      page: pageNo,
      perPage: PER_PAGE,
      now: this.clock.now(),
    });
  }

  @Get(':iid')
  async show(
    @Web() ctx: WebContext,
    @WebProjectAt(AccessLevel.Reporter) access: ProjectAccess,
    @Param('iid') iid: string,
    @Query('notice') notice: unknown,
  ): Promise<string> {
    const issue = await this.issues.get(access, parseId(iid, 'Issue'));
    return issuePage(ctx, {
      project: access.project,
      accessLevel: access.accessLevel,
      issue,
      canEdit: access.accessLevel >= AccessLevel.Developer,
      now: this.clock.now(),
      notice,
    });
  }

  @Post(':iid/state')
  async state(
    @WebProjectAt(AccessLevel.Developer) access: ProjectAccess,
    @Param('iid') iid: string,
    @Body() body: unknown,
    @Res() res: Response,
  ): Promise<void> {
    const event = formField(body, 'state_event');
    if (event !== 'close' && event !== 'reopen')
      throw ErrorTrackingError.badRequest(
        'state_event must be close or reopen',
      );
    const issue = await this.issues.update(access, parseId(iid, 'Issue'), {
      stateEvent: event,
    });
    res.redirect(
      303,
      withNotice(
        `/projects/${access.project.id}/issues/${issue.iid}`,
        event === 'close' ? 'issue-closed' : 'issue-reopened',
      ),
    );
  }
}
