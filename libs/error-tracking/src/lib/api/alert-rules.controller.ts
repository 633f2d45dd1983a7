import { Get, Param, Put, Req } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Request } from 'express';

import type { Caller } from '../accounts/account.types';
import { CurrentCaller } from '../accounts/token-auth.guard';
import { AccessLevel } from '../common/error-tracking.constants';
import { GitLabProjectController } from './gitlab-controller.decorator';
import { Params } from '../http/params';
import { ProjectAccessService } from '../projects/project-access.service';
import { readAlertRules } from '../alerts/alert-rules.params';
import type { AlertRules } from '../alerting/alert.types';
import { AlertsService } from '../alerts/alerts.service';
import { AlertRulesResponseDto } from '../alerting/dto/hook.response.dto';
import { AlertRulesBodyDto } from './dto/hooks.request-bodies.dto';

function toRulesResponse(rules: AlertRules): AlertRulesResponseDto {
  return {
    frequent_threshold: rules.frequentThreshold,
    frequent_window_minutes: rules.frequentWindowMinutes,
  };
}

/** The `frequent` alert rule (reporter reads, maintainer changes). */
@GitLabProjectController(
  'api/v4/projects/:id/error_tracking/alerts',
  'error tracking: alerts',
)
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
    const params = Params.of(req.query, req.body);
    const rules = readAlertRules(params, params.source);
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
