import { Delete, Get, Param, Post, Put, Req, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
} from '@nestjs/swagger';
import { ApiErrorResponses, NoContent } from '@quitanda/http';
import type { Request, Response } from 'express';

import type { Caller } from '../accounts/account.types';
import { CurrentCaller } from '../accounts/token-auth.guard';
import { AccessLevel } from '../common/error-tracking.constants';
import { BaseUrl } from '../http/base-url';
import { GitLabProjectController } from './gitlab-controller.decorator';
import { ApiGitLabPage, GitLabErrorDto } from '../http/openapi';
import { ErrorTrackingError } from '../common/error-tracking.errors';
import { offsetPage } from '../http/pagination';
import { Params } from '../http/params';
import { parseId } from '../http/path-params';
import { ProjectAccessService } from '../projects/project-access.service';
import type { HookInput } from '../alerts/alerts.service';
import { AlertsService } from '../alerts/alerts.service';
import {
  HookEventResponseDto,
  HookResponseDto,
  toHookEventResponse,
  toHookResponse,
} from '../alerting/dto/hook.response.dto';
import { HOOK_BODY } from './dto/hooks.request-bodies.dto';

function hookInput(params: Params, create: boolean): HookInput {
  const body = HOOK_BODY.read(params, { partial: !create });
  return {
    url: body.url,
    token: body.token,
    errorTrackingEvents: body.error_tracking_events,
    enableSslVerification: body.enable_ssl_verification,
  };
}

/** GitLab's project hooks, for error-tracking alerts (maintainer). */
@GitLabProjectController('api/v4/projects/:id/hooks', 'error tracking: alerts')
export class HooksController {
  constructor(
    private readonly alerts: AlertsService,
    private readonly access: ProjectAccessService,
    private readonly baseUrl: BaseUrl,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Project webhooks (maintainer)' })
  @ApiOkResponse({ type: HookResponseDto, isArray: true })
  async list(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
  ): Promise<HookResponseDto[]> {
    const access = await this.access.require(
      caller,
      id,
      AccessLevel.Maintainer,
    );
    return (await this.alerts.listHooks(access)).map(toHookResponse);
  }

  @Post()
  @ApiOperation({
    summary: 'Add a webhook (maintainer); the token is write-only',
  })
  @HOOK_BODY.ApiBody()
  @ApiCreatedResponse({ type: HookResponseDto })
  async create(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Req() req: Request,
  ): Promise<HookResponseDto> {
    const params = Params.of(req.query, req.body);
    const input = hookInput(params, true);
    const access = await this.access.require(
      caller,
      id,
      AccessLevel.Maintainer,
    );
    params.check();
    return toHookResponse(await this.alerts.createHook(access, input));
  }

  @Get(':hook_id')
  @ApiOperation({ summary: 'One webhook (maintainer)' })
  @ApiOkResponse({ type: HookResponseDto })
  async get(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('hook_id') hookId: string,
  ): Promise<HookResponseDto> {
    const access = await this.access.require(
      caller,
      id,
      AccessLevel.Maintainer,
    );
    return toHookResponse(
      await this.alerts.findHook(access, parseId(hookId, 'Hook')),
    );
  }

  @Put(':hook_id')
  @ApiOperation({
    summary:
      'Change a webhook (maintainer); an empty token removes it, and so does a new URL without one',
  })
  @HOOK_BODY.ApiBody()
  @ApiOkResponse({ type: HookResponseDto })
  async update(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('hook_id') hookId: string,
    @Req() req: Request,
  ): Promise<HookResponseDto> {
    const params = Params.of(req.query, req.body);
    const input = hookInput(params, false);
    const access = await this.access.require(
      caller,
      id,
      AccessLevel.Maintainer,
    );
    params.check();
    return toHookResponse(
      await this.alerts.updateHook(access, parseId(hookId, 'Hook'), input),
    );
  }

  @Delete(':hook_id')
  @NoContent()
  @ApiOperation({
    summary: 'Delete a webhook and its pending deliveries (maintainer)',
  })
  async remove(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('hook_id') hookId: string,
  ): Promise<void> {
    const access = await this.access.require(
      caller,
      id,
      AccessLevel.Maintainer,
    );
    await this.alerts.deleteHook(access, parseId(hookId, 'Hook'));
  }

  @Get(':hook_id/events')
  @ApiOperation({
    summary: 'Recent deliveries of a webhook, newest first (maintainer)',
  })
  @ApiGitLabPage(HookEventResponseDto)
  async events(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('hook_id') hookId: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<HookEventResponseDto[]> {
    const access = await this.access.require(
      caller,
      id,
      AccessLevel.Maintainer,
    );
    const attempts = await offsetPage(
      req,
      res,
      this.baseUrl.of(req),
      'attempts',
      (limit, offset) =>
        this.alerts.attempts(access, parseId(hookId, 'Hook'), limit, offset),
    );
    return attempts.map(toHookEventResponse);
  }

  @Post(':hook_id/test/:trigger')
  @ApiOperation({
    summary: 'Send a sample alert now (maintainer); trigger `error_tracking`',
  })
  @ApiParam({
    name: 'trigger',
    enum: ['error_tracking'],
    description: "GitLab's trigger name; error tracking alerts only.",
  })
  @ApiCreatedResponse({
    description: 'The receiver accepted the sample alert.',
    schema: {
      type: 'object',
      properties: { message: { type: 'string', example: '201 Created' } },
    },
  })
  @ApiErrorResponses(GitLabErrorDto, {
    422: { description: 'The receiver did not accept it.' },
  })
  async test(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('hook_id') hookId: string,
    @Param('trigger') trigger: string,
  ): Promise<{ message: string }> {
    const access = await this.access.require(
      caller,
      id,
      AccessLevel.Maintainer,
    );
    if (trigger !== 'error_tracking')
      throw ErrorTrackingError.invalidParameter(
        'trigger does not have a valid value',
      );
    const outcome = await this.alerts.test(access, parseId(hookId, 'Hook'));
    if (!outcome.delivered)
      throw ErrorTrackingError.unprocessable(
        `Hook execution failed: ${outcome.error ?? 'no 2xx response'}`,
      );
    return { message: '201 Created' };
  }
}
