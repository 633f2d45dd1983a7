import { Delete, Get, Param, Post, Req, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { ApiErrorResponses, NoContent } from '@quitanda/http';
import { keysetPage } from '@quitanda/kernel';
import type { Request, Response } from 'express';

import type { Caller } from '../accounts/account.types';
import { CurrentCaller } from '../accounts/token-auth.guard';
import { ApiProjectId, GitLabController } from './gitlab-controller.decorator';
import { AccessLevel } from '../common/error-tracking.constants';
import { ErrorTrackingError } from '../common/error-tracking.errors';
import { BaseUrl } from '../http/base-url';
import {
  ApiGitLabPage,
  ApiPageQueries,
  GitLabErrorDto,
  PAGE_OR_KEYSET_HEADERS,
} from '../http/openapi';
import {
  offsetPage,
  pageRequest,
  setNextLink,
  setPageHeaders,
} from '../http/pagination';
import { Params } from '../http/params';
import { parseId } from '../http/path-params';
import {
  MemberResponseDto,
  ProjectResponseDto,
  toMemberResponse,
  toProjectResponse,
} from '../projects/dto/project.response.dto';
import {
  ADD_MEMBER_BODY,
  CREATE_PROJECT_BODY,
} from './dto/projects.request-bodies.dto';
import { LIST_PROJECTS_QUERY } from './dto/projects.request-queries.dto';
import { ProjectAccessService } from '../projects/project-access.service';
import { ProjectsService } from '../projects/projects.service';

@GitLabController('api/v4/projects', 'error tracking: projects and members')
export class ProjectsController {
  constructor(
    private readonly projects: ProjectsService,
    private readonly access: ProjectAccessService,
    private readonly baseUrl: BaseUrl,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create a project; the creator becomes its owner' })
  @CREATE_PROJECT_BODY.ApiBody()
  @ApiCreatedResponse({ type: ProjectResponseDto })
  async create(
    @CurrentCaller() caller: Caller,
    @Req() req: Request,
  ): Promise<ProjectResponseDto> {
    const params = Params.of(req.query, req.body);
    const { name, path, description } = CREATE_PROJECT_BODY.read(params);
    if (!name && !path)
      params.invalid(
        'name, path are missing, at least one parameter must be provided',
      );
    params.check();
    const project = await this.projects.create(caller, {
      name,
      path,
      description,
    });
    return toProjectResponse(project, this.baseUrl.of(req));
  }

  @Get()
  @ApiOperation({
    summary: 'Projects the caller is a member of (all for admins)',
  })
  @ApiPageQueries()
  @LIST_PROJECTS_QUERY.ApiQueries()
  @ApiOkResponse({
    type: ProjectResponseDto,
    isArray: true,
    headers: PAGE_OR_KEYSET_HEADERS,
  })
  @ApiErrorResponses(GitLabErrorDto, {
    405: {
      description: 'Keyset pagination with an `order_by` other than `id`.',
    },
  })
  async list(
    @CurrentCaller() caller: Caller,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ProjectResponseDto[]> {
    const query = req.query as Record<string, unknown>;
    const page = pageRequest(query);
    const params = new Params(query);
    const {
      pagination,
      order_by: by,
      sort,
      id_after: idAfter,
      id_before: idBefore,
    } = LIST_PROJECTS_QUERY.read(params);
    params.check();
    const base = this.baseUrl.of(req);
    if (pagination !== 'keyset') {
      const order = { by: by ?? 'created_at', ascending: sort === 'asc' };
      const { projects, total } = await this.projects.list(
        caller,
        page.perPage,
        page.offset,
        { order },
      );
      setPageHeaders(res, req, base, page, total);
      return projects.map(({ project }) => toProjectResponse(project, base));
    }
    // GitLab pages projects by keyset on their id only.
    if (by !== undefined && by !== 'id')
      throw ErrorTrackingError.keysetUnavailable();
    const ascending = sort === 'asc';
    const { projects } = await this.projects.list(
      caller,
      page.perPage + 1,
      undefined,
      {
        order: { by: 'id', ascending },
        after: ascending ? idAfter : idBefore,
      },
    );
    const { items, next } = keysetPage(projects, page.perPage);
    const boundary = next && String(next.project.id);
    setNextLink(
      res,
      req,
      base,
      boundary === undefined
        ? undefined
        : ascending
          ? { id_after: boundary, id_before: undefined }
          : { id_before: boundary, id_after: undefined },
    );
    return items.map(({ project }) => toProjectResponse(project, base));
  }

  @Get(':id')
  @ApiProjectId()
  @ApiOperation({ summary: 'One project (any member)' })
  @ApiOkResponse({ type: ProjectResponseDto })
  async get(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Req() req: Request,
  ): Promise<ProjectResponseDto> {
    const { project } = await this.access.require(
      caller,
      id,
      AccessLevel.Guest,
    );
    return toProjectResponse(project, this.baseUrl.of(req));
  }

  @Get(':id/members')
  @ApiProjectId()
  @ApiOperation({ summary: 'Members of a project (any member)' })
  @ApiGitLabPage(MemberResponseDto)
  async members(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<MemberResponseDto[]> {
    const access = await this.access.require(caller, id, AccessLevel.Guest);
    const base = this.baseUrl.of(req);
    const members = await offsetPage(
      req,
      res,
      base,
      'members',
      (limit, offset) => this.projects.listMembers(access, limit, offset),
    );
    return members.map((m) => toMemberResponse(m, base));
  }

  @Get(':id/members/:user_id')
  @ApiProjectId()
  @ApiOperation({ summary: 'One member (any member)' })
  @ApiOkResponse({ type: MemberResponseDto })
  async member(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('user_id') userId: string,
    @Req() req: Request,
  ): Promise<MemberResponseDto> {
    const access = await this.access.require(caller, id, AccessLevel.Guest);
    const member = await this.projects.getMember(
      access,
      parseId(userId, 'Member'),
    );
    return toMemberResponse(member, this.baseUrl.of(req));
  }

  @Post(':id/members')
  @ApiProjectId()
  @ApiOperation({
    summary: 'Add a member (maintainer; not above your own level)',
  })
  @ADD_MEMBER_BODY.ApiBody()
  @ApiCreatedResponse({ type: MemberResponseDto })
  async addMember(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Req() req: Request,
  ): Promise<MemberResponseDto> {
    const access = await this.access.require(
      caller,
      id,
      AccessLevel.Maintainer,
    );
    const params = Params.of(req.query, req.body);
    const body = ADD_MEMBER_BODY.read(params);
    params.check();
    const member = await this.projects.addMember(
      access,
      body.user_id,
      body.access_level,
    );
    return toMemberResponse(member, this.baseUrl.of(req));
  }

  @Delete(':id/members/:user_id')
  @ApiProjectId()
  @NoContent()
  @ApiOperation({
    summary: 'Remove a member (maintainer; owners only by owners)',
  })
  async removeMember(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('user_id') userId: string,
  ): Promise<void> {
    const access = await this.access.require(
      caller,
      id,
      AccessLevel.Maintainer,
    );
    await this.projects.removeMember(access, parseId(userId, 'Member'));
  }
}
