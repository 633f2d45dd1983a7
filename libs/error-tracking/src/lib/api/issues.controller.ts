import { Get, Param, Post, Put, Req, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';

import type { Caller } from '../accounts/account.types';
import { CurrentCaller } from '../accounts/token-auth.guard';
import { AccessLevel } from '../common/error-tracking.constants';
import { BaseUrl } from '../http/base-url';
import { GitLabProjectController } from './gitlab-controller.decorator';
import { ApiGitLabPage } from '../http/openapi';
import { offsetPage } from '../http/pagination';
import { Params } from '../http/params';
import { parseId } from '../http/path-params';
import { ProjectAccessService } from '../projects/project-access.service';
import {
  IssueResponseDto,
  toIssueResponse,
} from '../issues/dto/issue.response.dto';
import { LIST_ISSUES_QUERY } from './dto/issues.request-queries.dto';
import {
  CREATE_ISSUE_BODY,
  UPDATE_ISSUE_BODY,
} from './dto/issues.request-bodies.dto';
import { IssuesService } from '../issues/issues.service';

@GitLabProjectController('api/v4/projects/:id/issues', 'error tracking: issues')
export class IssuesController {
  constructor(
    private readonly issues: IssuesService,
    private readonly access: ProjectAccessService,
    private readonly baseUrl: BaseUrl,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Issues of a project, newest first (reporter)' })
  @LIST_ISSUES_QUERY.ApiQueries()
  @ApiGitLabPage(IssueResponseDto)
  async list(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<IssueResponseDto[]> {
    const access = await this.access.require(caller, id, AccessLevel.Reporter);
    const params = new Params(req.query as Record<string, unknown>);
    const { state } = LIST_ISSUES_QUERY.read(params);
    params.check();
    const base = this.baseUrl.of(req);
    const issues = await offsetPage(req, res, base, 'issues', (limit, offset) =>
      this.issues.list(
        access,
        state === 'all' ? undefined : state,
        limit,
        offset,
      ),
    );
    return issues.map((issue) => toIssueResponse(issue, base));
  }

  @Post()
  @ApiOperation({ summary: 'Create an issue (developer)' })
  @CREATE_ISSUE_BODY.ApiBody()
  @ApiCreatedResponse({ type: IssueResponseDto })
  async create(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Req() req: Request,
  ): Promise<IssueResponseDto> {
    const access = await this.access.require(caller, id, AccessLevel.Developer);
    const params = Params.of(req.query, req.body);
    const { title, description, labels } = CREATE_ISSUE_BODY.read(params);
    params.check();
    const issue = await this.issues.create(caller, access, {
      title,
      description,
      labels,
    });
    return toIssueResponse(issue, this.baseUrl.of(req));
  }

  @Get(':iid')
  @ApiOperation({ summary: 'One issue (reporter)' })
  @ApiOkResponse({ type: IssueResponseDto })
  async get(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('iid') iid: string,
    @Req() req: Request,
  ): Promise<IssueResponseDto> {
    const access = await this.access.require(caller, id, AccessLevel.Reporter);
    const issue = await this.issues.get(access, parseId(iid, 'Issue'));
    return toIssueResponse(issue, this.baseUrl.of(req));
  }

  @Put(':iid')
  @ApiOperation({
    summary:
      'Update, close (`state_event=close`) or reopen an issue (developer)',
  })
  @UPDATE_ISSUE_BODY.ApiBody()
  @ApiOkResponse({ type: IssueResponseDto })
  async update(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('iid') iid: string,
    @Req() req: Request,
  ): Promise<IssueResponseDto> {
    const access = await this.access.require(caller, id, AccessLevel.Developer);
    const params = Params.of(req.query, req.body);
    const {
      title,
      description,
      labels,
      state_event: stateEvent,
    } = UPDATE_ISSUE_BODY.read(params);
    if (title !== undefined && title.trim() === '')
      params.invalid('title is empty');
    params.check();
    const issue = await this.issues.update(access, parseId(iid, 'Issue'), {
      title,
      description,
      labels,
      stateEvent,
    });
    return toIssueResponse(issue, this.baseUrl.of(req));
  }
}
