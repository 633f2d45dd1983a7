import { Controller, Get, Param, Put, Req, UseGuards } from '@nestjs/common';
import {
  ApiBody,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';

import type { Caller } from '../accounts/account.types';
import { CurrentCaller, TokenAuthGuard } from '../accounts/token-auth.guard';
import { AccessLevel } from '../error-tracking.constants';
import { GitLabRestApi } from '../http/openapi';
import { Params } from '../http/params';
import { ProjectAccessService } from '../projects/project-access.service';
import { readAlertRules } from './alert-rules.params';
import type { AlertRules } from './alert.types';
import { AlertsService } from './alerts.service';
import { AlertRulesResponseDto } from './dto/hook.response.dto';
import { AlertRulesBodyDto } from './dto/request-bodies.dto';

function toRulesResponse(rules: AlertRules): AlertRulesResponseDto {
  return {
    frequent_threshold: rules.frequentThreshold,
    frequent_window_minutes: rules.frequentWindowMinutes,
  };
}

/** The `frequent` alert rule (reporter reads, maintainer changes). */
@ApiTags('error tracking: alerts')
@GitLabRestApi()
@ApiParam({
  name: 'id',
  description: 'Numeric project id or URL-encoded path.',
})
@UseGuards(TokenAuthGuard)
@Controller('api/v4/projects/:id/error_tracking/alerts')
export class AlertRulesController {
  constructor(
    private readonly alerts: AlertsService,
    private readonly access: ProjectAccessService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Alert settings (reporter)' })
  @ApiOkResponse({ type: AlertRulesResponseDto })
  async get(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
  ): Promise<AlertRulesResponseDto> {
    const access = await this.access.require(caller, id, AccessLevel.Reporter);
    return toRulesResponse(await this.alerts.rules(access));
  }

  @Put()
  @ApiOperation({ summary: 'Change the alert settings (maintainer)' })
  @ApiBody({ type: AlertRulesBodyDto })
  @ApiOkResponse({ type: AlertRulesResponseDto })
  async put(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Req() req: Request,
  ): Promise<AlertRulesResponseDto> {
    const merged: Record<string, unknown> = { ...(req.query as object) };
    if (req.body && typeof req.body === 'object' && !Array.isArray(req.body))
      Object.assign(merged, req.body);
    const params = new Params(merged);
    const rules = readAlertRules(params, merged);
    const access = await this.access.require(
      caller,
      id,
      AccessLevel.Maintainer,
    );
    params.check();
    return toRulesResponse(
      await this.alerts.setRules(access, rules as AlertRules),
    );
  }
}
