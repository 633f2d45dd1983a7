import {
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Patch,
  Post,
  Put,
  Req,
  Res,
} from '@nestjs/common';
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
  PATCH_SETTING_BODY,
  PUT_SETTING_BODY,
} from './dto/settings.request-bodies.dto';
import {
  ClientKeyResponseDto,
  SettingResponseDto,
  toClientKeyResponse,
  toSettingResponse,
} from '../settings/dto/settings.response.dto';
import { SettingsService } from '../settings/settings.service';

@GitLabProjectController(
  'api/v4/projects/:id/error_tracking',
  'error tracking: settings and client keys',
)
export class SettingsController {
  constructor(
    private readonly settings: SettingsService,
    private readonly access: ProjectAccessService,
    private readonly baseUrl: BaseUrl,
  ) {}

  @Get('settings')
  @ApiOperation({ summary: 'Error-tracking setting (maintainer)' })
  @ApiOkResponse({ type: SettingResponseDto })
  async get(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
  ): Promise<SettingResponseDto> {
    const { project } = await this.access.require(
      caller,
      id,
      AccessLevel.Maintainer,
    );
    return toSettingResponse(project);
  }

  @Patch('settings')
  @ApiOperation({
    summary:
      'Enable or disable error tracking (maintainer); enabling creates the first key',
  })
  @PATCH_SETTING_BODY.ApiBody()
  @ApiOkResponse({ type: SettingResponseDto })
  async patch(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Req() req: Request,
  ): Promise<SettingResponseDto> {
    const params = Params.of(req.query, req.body);
    const { active, integrated } = PATCH_SETTING_BODY.read(params);
    const access = await this.access.require(
      caller,
      id,
      AccessLevel.Maintainer,
    );
    params.check();
    const project = await this.settings.update(access, {
      active,
      integrated: integrated ?? access.project.trackingIntegrated,
    });
    return toSettingResponse(project);
  }

  @Put('settings')
  @ApiOperation({ summary: 'Create or replace the setting (maintainer)' })
  @PUT_SETTING_BODY.ApiBody()
  @ApiOkResponse({ type: SettingResponseDto })
  async put(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Req() req: Request,
  ): Promise<SettingResponseDto> {
    const params = Params.of(req.query, req.body);
    const { active, integrated } = PUT_SETTING_BODY.read(params);
    const access = await this.access.require(
      caller,
      id,
      AccessLevel.Maintainer,
    );
    params.check();
    return toSettingResponse(
      await this.settings.update(access, { active, integrated }),
    );
  }

  @Get('client_keys')
  @ApiOperation({ summary: 'Client keys (DSNs), paginated (maintainer)' })
  @ApiGitLabPage(ClientKeyResponseDto)
  async keys(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ClientKeyResponseDto[]> {
    const access = await this.access.require(
      caller,
      id,
      AccessLevel.Maintainer,
    );
    const base = this.baseUrl.of(req);
    const keys = await offsetPage(req, res, base, 'keys', (limit, offset) =>
      this.settings.listKeys(access, limit, offset),
    );
    return keys.map((key) => toClientKeyResponse(key, base));
  }

  @Post('client_keys')
  @ApiOperation({ summary: 'Create a client key (no body; maintainer)' })
  @ApiCreatedResponse({ type: ClientKeyResponseDto })
  async createKey(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Req() req: Request,
  ): Promise<ClientKeyResponseDto> {
    const access = await this.access.require(
      caller,
      id,
      AccessLevel.Maintainer,
    );
    return toClientKeyResponse(
      await this.settings.createKey(access),
      this.baseUrl.of(req),
    );
  }

  @Delete('client_keys/:key_id')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary:
      'Delete a client key; returns it (maintainer). It stops ingesting at once.',
  })
  @ApiOkResponse({ type: ClientKeyResponseDto })
  async deleteKey(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('key_id') keyId: string,
    @Req() req: Request,
  ): Promise<ClientKeyResponseDto> {
    const access = await this.access.require(
      caller,
      id,
      AccessLevel.Maintainer,
    );
    const key = await this.settings.deleteKey(access, parseId(keyId));
    return toClientKeyResponse(key, this.baseUrl.of(req));
  }
}
