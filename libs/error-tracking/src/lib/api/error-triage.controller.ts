import { HttpCode, Param, Post, Put, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Request } from 'express';

import type { Caller } from '../accounts/account.types';
import { CurrentCaller } from '../accounts/token-auth.guard';
import { AccessLevel } from '../common/error-tracking.constants';
import { BaseUrl } from '../http/base-url';
import { Params } from '../http/params';
import { parseBigId } from '../http/path-params';
import { issueWebUrl } from '../issues/dto/issue.response.dto';
import { ProjectAccessService } from '../projects/project-access.service';
import {
  BulkUpdatedErrorsResponseDto,
  DetailedErrorResponseDto,
  toDetailedErrorResponse,
} from '../errors/dto/error.response.dto';
import { ErrorMergeService } from '../errors/error-merge.service';
import { MAX_BULK_ERRORS } from '../errors/error.types';
import { ErrorsService } from '../errors/errors.service';
import type { BulkTarget } from '../errors/errors.service';
import {
  BULK_UPDATE_ERRORS_BODY,
  MERGE_ERRORS_BODY,
  ignoreUntilOfBody,
} from './dto/errors.request-bodies.dto';
import { GitLabProjectController } from './gitlab-controller.decorator';

const ERROR_ID = /^[1-9]\d{0,18}$/;

/** Error ids of a body, each a valid id (`name is invalid` otherwise). */
function errorIds(
  params: Params,
  name: string,
  ids: string[] | undefined,
): string[] | undefined {
  if (ids === undefined) return undefined;
  if (!ids.every((id) => ERROR_ID.test(id))) {
    params.invalid(`${name} is invalid`);
    return undefined;
  }
  return [...new Set(ids)];
}

/**
 * Triage of many errors at once (the list's selection, or everything a
 * search takes) and merging errors into one: the bulk side of
 * `PUT .../errors/:error_id`, in the same GitLab shapes.
 */
@GitLabProjectController(
  'api/v4/projects/:id/error_tracking',
  'error tracking: errors',
)
export class ErrorTriageController {
  constructor(
    private readonly errors: ErrorsService,
    private readonly merges: ErrorMergeService,
    private readonly access: ProjectAccessService,
    private readonly baseUrl: BaseUrl,
  ) {}

  @Put('errors')
  @ApiOperation({
    summary: `Set the status of the errors \`error_ids\` names, or of every error a search takes (\`all_matching\`, at most ${MAX_BULK_ERRORS}); resolving closes linked issues (developer)`,
  })
  @BULK_UPDATE_ERRORS_BODY.ApiBody()
  @ApiOkResponse({ type: BulkUpdatedErrorsResponseDto })
  async bulkUpdate(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Req() req: Request,
  ): Promise<BulkUpdatedErrorsResponseDto> {
    const access = await this.access.require(caller, id, AccessLevel.Developer);
    const params = Params.of(req.query, req.body);
    const body = BULK_UPDATE_ERRORS_BODY.read(params);
    const ids = errorIds(params, 'error_ids', body.error_ids);
    const all = body.all_matching === true;
    const named = body.error_ids !== undefined;
    if (named === all)
      params.invalid(
        !named
          ? 'error_ids, all_matching are missing, exactly one parameter must be provided'
          : 'error_ids, all_matching are mutually exclusive',
      );
    if (ids !== undefined && ids.length > MAX_BULK_ERRORS)
      params.invalid(`error_ids has more than ${MAX_BULK_ERRORS} errors`);
    params.check();
    const ignoreUntil = ignoreUntilOfBody(body);
    const target: BulkTarget = ids
      ? { ids }
      : {
          filter: {
            status: body.current_status,
            defaultStatus: 'unresolved',
            search: body.search || body.search_term || undefined,
            query: body.query,
            level: body.level,
            environment: body.environment || undefined,
            release: body.release || undefined,
          },
          limit: MAX_BULK_ERRORS,
          refuseBeyond: true,
        };
    const changed = await this.errors.updateStatusOfMany(
      access,
      target,
      body.status,
      ignoreUntil,
    );
    return {
      updated: changed.errors.length,
      error_ids: changed.errors.map((error) => error.id),
      closed_issue_iids: changed.closedIssueIids,
    };
  }

  @Post('errors/:error_id/merge')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Merge the errors `error_ids` names into this one: their events, counts and users move, and their future events land here (developer)',
  })
  @MERGE_ERRORS_BODY.ApiBody()
  @ApiOkResponse({ type: DetailedErrorResponseDto })
  async merge(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('error_id') errorId: string,
    @Req() req: Request,
  ): Promise<DetailedErrorResponseDto> {
    const access = await this.access.require(caller, id, AccessLevel.Developer);
    const keptId = parseBigId(errorId, 'Error');
    const params = Params.of(req.query, req.body);
    const body = MERGE_ERRORS_BODY.read(params);
    const ids = errorIds(params, 'error_ids', body.error_ids);
    params.check();
    await this.merges.merge(access, keptId, ids ?? []);
    const { error, frequency } = await this.errors.get(access, keptId);
    const base = this.baseUrl.of(req);
    return toDetailedErrorResponse(error, frequency, {
      errorUrl: `${base}/projects/${access.project.id}/error_tracking/${error.id}`,
      issueUrl:
        error.issueIid === null
          ? null
          : issueWebUrl(base, access.project.id, error.issueIid),
    });
  }
}
