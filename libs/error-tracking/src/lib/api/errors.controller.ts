import {
  Get,
  Param,
  Post,
  Put,
  Req,
  Res,
  StreamableFile,
} from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';

import type { Caller } from '../accounts/account.types';
import { CurrentCaller } from '../accounts/token-auth.guard';
import {
  AccessLevel,
  DEFAULT_PER_PAGE,
  MAX_PER_PAGE,
} from '../common/error-tracking.constants';
import { BaseUrl } from '../http/base-url';
import { GitLabProjectController } from './gitlab-controller.decorator';
import { ApiGitLabKeysetPage } from '../http/openapi';
import { setNextCursorLink } from '../http/pagination';
import { Params } from '../http/params';
import { parseBigId } from '../http/path-params';
import {
  IssueResponseDto,
  issueWebUrl,
  toIssueResponse,
} from '../issues/dto/issue.response.dto';
import { ProjectAccessService } from '../projects/project-access.service';
import type { ProjectAccess } from '../projects/project.types';
import {
  ReleaseHealthResponseDto,
  toReleaseHealthResponse,
} from '../errors/dto/release-health.response.dto';
import { ReleaseHealthService } from '../errors/release-health.service';
import {
  DetailedErrorResponseDto,
  ErrorResponseDto,
  EventSummaryResponseDto,
  StackTraceResponseDto,
  UpdatedErrorResponseDto,
  toDetailedErrorResponse,
  toErrorResponse,
  toEventSummaryResponse,
} from '../errors/dto/error.response.dto';
import {
  UPDATE_ERROR_BODY,
  ignoreUntilOfBody,
} from './dto/errors.request-bodies.dto';
import {
  LIST_ERRORS_QUERY,
  LIST_EVENTS_QUERY,
  RELEASE_HEALTH_QUERY,
} from './dto/errors.request-queries.dto';
import type { ErrorRecord, Frequency } from '../errors/error.types';
import { ErrorEventsService } from '../errors/error-events.service';
import { ErrorsService } from '../errors/errors.service';
import {
  EventNavigationResponseDto,
  toEventNavigationResponse,
} from '../errors/dto/event-navigation.response.dto';
import { scrubEventPayload } from '../sentry-event/scrub-event';

function perPage(params: Params): number {
  const value = params.integer('per_page');
  if (value !== undefined && value < 1) params.invalid('per_page is invalid');
  return Math.min(value ?? DEFAULT_PER_PAGE, MAX_PER_PAGE);
}

@GitLabProjectController(
  'api/v4/projects/:id/error_tracking',
  'error tracking: errors',
)
export class ErrorsController {
  constructor(
    private readonly errors: ErrorsService,
    private readonly errorEvents: ErrorEventsService,
    private readonly releaseHealth: ReleaseHealthService,
    private readonly access: ProjectAccessService,
    private readonly baseUrl: BaseUrl,
  ) {}

  @Get('errors')
  @ApiOperation({
    summary:
      'Grouped errors, keyset-paginated via `Link: rel="next"` (reporter)',
  })
  @LIST_ERRORS_QUERY.ApiQueries()
  @ApiGitLabKeysetPage(ErrorResponseDto)
  async list(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ErrorResponseDto[]> {
    const access = await this.access.require(caller, id, AccessLevel.Reporter);
    const params = new Params(req.query as Record<string, unknown>);
    const query = LIST_ERRORS_QUERY.read(params);
    const limit = perPage(params);
    params.check();
    const { search_term: searchTerm, ...filters } = query;
    const page = await this.errors.list(access, {
      ...filters,
      search: filters.search ?? searchTerm,
      defaultStatus: 'unresolved',
      sort: query.sort ?? 'last_seen',
      limit,
    });
    setNextCursorLink(res, req, this.baseUrl.of(req), page.nextCursor);
    return page.items.map(({ error, frequency }) =>
      toErrorResponse(error, frequency),
    );
  }

  @Get('errors/:error_id')
  @ApiOperation({
    summary: 'One error with releases, tags and its issue (reporter)',
  })
  @ApiOkResponse({ type: DetailedErrorResponseDto })
  async get(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('error_id') errorId: string,
    @Req() req: Request,
  ): Promise<DetailedErrorResponseDto> {
    const access = await this.access.require(caller, id, AccessLevel.Reporter);
    const { error, frequency } = await this.errors.get(
      access,
      parseBigId(errorId, 'Error'),
    );
    return this.detailed(req, access, error, frequency);
  }

  @Get('errors/:error_id/stack_trace')
  @ApiOperation({
    summary: "The latest event's stack trace, crash frame last (reporter)",
  })
  @ApiOkResponse({ type: StackTraceResponseDto })
  async stackTrace(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('error_id') errorId: string,
  ): Promise<StackTraceResponseDto> {
    const access = await this.access.require(caller, id, AccessLevel.Reporter);
    const trace = await this.errors.stackTrace(
      access,
      parseBigId(errorId, 'Error'),
    );
    return {
      error: {
        issue_id: trace.errorId,
        date_received: trace.dateReceived?.toISOString() ?? null,
        stack_trace_entries: trace.entries,
      },
    };
  }

  @Get('errors/:error_id/events')
  @ApiOperation({
    summary: 'Occurrences, newest first, keyset-paginated (reporter)',
  })
  @LIST_EVENTS_QUERY.ApiQueries()
  @ApiGitLabKeysetPage(EventSummaryResponseDto)
  async events(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('error_id') errorId: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<EventSummaryResponseDto[]> {
    const access = await this.access.require(caller, id, AccessLevel.Reporter);
    const params = new Params(req.query as Record<string, unknown>);
    const { cursor, query, search } = LIST_EVENTS_QUERY.read(params);
    const limit = perPage(params);
    params.check();
    const page = await this.errors.events(
      access,
      parseBigId(errorId, 'Error'),
      limit,
      cursor,
      { query, search: search || undefined },
    );
    setNextCursorLink(res, req, this.baseUrl.of(req), page.nextCursor);
    return page.items.map(toEventSummaryResponse);
  }

  @Get('errors/:error_id/events/:event_id')
  @ApiOperation({
    summary:
      'One occurrence: the whole normalised event; `latest` and `oldest` name those (reporter)',
  })
  @ApiOkResponse({
    schema: { type: 'object', description: 'The normalised Sentry event.' },
  })
  async event(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('error_id') errorId: string,
    @Param('event_id') eventId: string,
  ): Promise<StreamableFile> {
    const access = await this.access.require(caller, id, AccessLevel.Reporter);
    const { event } = await this.errorEvents.find(
      access,
      parseBigId(errorId, 'Error'),
      eventId,
    );
    // The stored text as is: integers beyond 2^53 keep every digit, which a
    // parse and serialise would round. Its Content-Type is GitLab's JSON.
    // An event stored before data scrubbing is served scrubbed instead.
    const scrubbed = JSON.stringify(scrubEventPayload(event.payload));
    return new StreamableFile(
      Buffer.from(
        scrubbed === JSON.stringify(event.payload)
          ? (event.payloadJson ?? scrubbed)
          : scrubbed,
      ),
    );
  }

  @Get('errors/:error_id/events/:event_id/navigation')
  @ApiOperation({
    summary:
      'The oldest, older, newer and latest events around one, by time (reporter)',
  })
  @ApiOkResponse({ type: EventNavigationResponseDto })
  async navigation(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('error_id') errorId: string,
    @Param('event_id') eventId: string,
  ): Promise<EventNavigationResponseDto> {
    const access = await this.access.require(caller, id, AccessLevel.Reporter);
    const at = await this.errorEvents.eventAt(
      access,
      parseBigId(errorId, 'Error'),
      eventId,
    );
    return toEventNavigationResponse(at.eventId, at.neighbours);
  }

  @Put('errors/:error_id')
  @ApiOperation({
    summary:
      'Set the status (ignoring until a time, a count or a user count if given); resolving closes the linked issue (developer)',
  })
  @UPDATE_ERROR_BODY.ApiBody()
  @ApiOkResponse({ type: UpdatedErrorResponseDto })
  async update(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('error_id') errorId: string,
    @Req() req: Request,
  ): Promise<UpdatedErrorResponseDto> {
    const access = await this.access.require(caller, id, AccessLevel.Developer);
    const params = Params.of(req.query, req.body);
    const body = UPDATE_ERROR_BODY.read(params);
    params.check();
    const { error, closedIssueIid } = await this.errors.updateStatus(
      access,
      parseBigId(errorId, 'Error'),
      body.status,
      ignoreUntilOfBody(body),
    );
    const { frequency } = await this.errors.get(access, error.id);
    return {
      ...this.detailed(req, access, error, frequency),
      closed_issue_iid: closedIssueIid,
    };
  }

  @Post('errors/:error_id/issue')
  @ApiOperation({
    summary:
      'Create the issue of an error (201), or return the linked one (200) (developer)',
  })
  @ApiCreatedResponse({ type: IssueResponseDto })
  @ApiOkResponse({ type: IssueResponseDto, description: 'Already linked.' })
  async createIssue(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('error_id') errorId: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<IssueResponseDto> {
    const access = await this.access.require(caller, id, AccessLevel.Developer);
    const base = this.baseUrl.of(req);
    const parsed = parseBigId(errorId, 'Error');
    const { issue, created } = await this.errors.createIssue(
      caller,
      access,
      parsed,
      this.errorUrl(base, access, parsed),
    );
    res.status(created ? 201 : 200);
    return toIssueResponse(issue, base);
  }

  @Get('release_health')
  @ApiOperation({ summary: 'Sessions per release and environment (reporter)' })
  @RELEASE_HEALTH_QUERY.ApiQueries()
  @ApiOkResponse({ type: ReleaseHealthResponseDto, isArray: true })
  async health(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Req() req: Request,
  ): Promise<ReleaseHealthResponseDto[]> {
    const access = await this.access.require(caller, id, AccessLevel.Reporter);
    const params = new Params(req.query as Record<string, unknown>);
    const { release, environment } = RELEASE_HEALTH_QUERY.read(params);
    params.check();
    const rows = await this.releaseHealth.list(access, {
      release: release || undefined,
      environment: environment || undefined,
    });
    return rows.map(toReleaseHealthResponse);
  }

  private errorUrl(
    base: string,
    access: ProjectAccess,
    errorId: string,
  ): string {
    return `${base}/projects/${access.project.id}/error_tracking/${errorId}`;
  }

  private detailed(
    req: Request,
    access: ProjectAccess,
    error: ErrorRecord,
    frequency: Frequency,
  ): DetailedErrorResponseDto {
    const base = this.baseUrl.of(req);
    return toDetailedErrorResponse(error, frequency, {
      errorUrl: this.errorUrl(base, access, error.id),
      issueUrl:
        error.issueIid === null
          ? null
          : issueWebUrl(base, access.project.id, error.issueIid),
    });
  }
}
