import { Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';

import type { Caller } from '../accounts/account.types';
import { CurrentCaller } from '../accounts/token-auth.guard';
import { AccessLevel } from '../common/error-tracking.constants';
import { parseBigId } from '../http/path-params';
import { ProjectAccessService } from '../projects/project-access.service';
import {
  TagKeyResponseDto,
  toTagKeyResponse,
} from '../errors/dto/tag-distribution.response.dto';
import { ErrorTagsService } from '../errors/error-tags.service';
import { GitLabProjectController } from './gitlab-controller.decorator';

@GitLabProjectController(
  'api/v4/projects/:id/error_tracking',
  'error tracking: errors',
)
export class ErrorTagsController {
  constructor(
    private readonly tags: ErrorTagsService,
    private readonly access: ProjectAccessService,
  ) {}

  @Get('errors/:error_id/tags')
  @ApiOperation({
    summary:
      "An error's tags over its kept events: per key, its top values with counts and shares (reporter)",
  })
  @ApiOkResponse({ type: TagKeyResponseDto, isArray: true })
  async list(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('error_id') errorId: string,
  ): Promise<TagKeyResponseDto[]> {
    const access = await this.access.require(caller, id, AccessLevel.Reporter);
    const keys = await this.tags.distribution(
      access,
      parseBigId(errorId, 'Error'),
    );
    return keys.map(toTagKeyResponse);
  }
}
