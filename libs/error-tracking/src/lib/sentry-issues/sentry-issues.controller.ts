import { Get, Param, Put, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';

import type { Caller } from '../accounts/account.types';
import { CurrentCaller } from '../accounts/token-auth.guard';
import { BaseUrl } from '../http/base-url';
import { linkTo } from '../http/pagination';
import type { ProjectAccess } from '../projects/project.types';
import { OrgParam, SentryWebApi } from '../sourcemaps/sentry-web-api.decorator';
import { paths, readJson, send } from '../sourcemaps/sentry-web-api.http';
import {
  IssueListQueries,
  PageQueries,
  SENTRY_EVENT_SCHEMA,
  SENTRY_EVENT_SUMMARY_SCHEMA,
  SENTRY_GROUP_SCHEMA,
  SENTRY_TAG_KEY_SCHEMA,
  SENTRY_TAG_VALUE_SCHEMA,
} from './sentry-issue.openapi';
import { SentryIssuesService } from './sentry-issues.service';
import type { QueryString } from './sentry-issues.service';

/** Sentry's Link: both relations always, `results` saying whether one leads anywhere. */
function setSentryLink(
  res: Response,
  req: Request,
  base: string,
  next: string | undefined,
): void {
  const link = (rel: string, cursor: string | undefined) =>
    `<${linkTo(req, base, { cursor: cursor ?? '' })}>; rel="${rel}"; results="${cursor !== undefined}"; cursor="${cursor ?? ''}"`;
  res.setHeader(
    'Link',
    `${link('previous', undefined)}, ${link('next', next)}`,
  );
}

/**
 * The query string as sent, every repetition kept: Express's parser stops
 * at 1000 parameters, so a longer `id=` list would be cut short silently
 * instead of refused.
 */
function queryOf(req: Request): QueryString {
  const at = req.originalUrl.indexOf('?');
  const params = new URLSearchParams(at < 0 ? '' : req.originalUrl.slice(at));
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    query[key] = all.length === 1 ? (all[0] as string) : all;
  }
  return query;
}

/**
 * Sentry's issue API where sentry-cli's `issues` commands call it: the
 * project's issue list and its bulk status change.
 */
@SentryWebApi('error tracking: issues (sentry-cli)', false)
export class SentryIssuesController {
  constructor(
    private readonly service: SentryIssuesService,
    private readonly baseUrl: BaseUrl,
  ) {}

  @Get(paths('projects/:org/:project/issues'))
  @ApiOperation({
    summary: "`issues list`: the project's issues, newest first (reporter)",
  })
  @OrgParam()
  @ApiParam({ name: 'project', description: 'Project id or path.' })
  @IssueListQueries()
  async list(
    @CurrentCaller() caller: Caller,
    @Param('project') project: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const base = this.baseUrl.of(req);
    const page = await this.service.list(
      caller,
      project,
      queryOf(req),
      this.permalink(req),
    );
    setSentryLink(res, req, base, page.nextCursor);
    send(res, 200, page.groups);
  }

  @Get(paths('issues/:issue'))
  @ApiOperation({ summary: 'One issue by id (reporter of its project)' })
  @ApiParam({ name: 'issue', description: 'The issue (error) id.' })
  @ApiQuery({
    name: 'statsPeriod',
    required: false,
    description: "`24h` (the default) or `''` (no `stats`).",
  })
  @ApiOkResponse({ schema: SENTRY_GROUP_SCHEMA })
  async get(
    @CurrentCaller() caller: Caller,
    @Param('issue') issue: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const group = await this.service.get(
      caller,
      issue,
      queryOf(req),
      this.permalink(req),
    );
    send(res, 200, group);
  }

  @Get(paths('issues/:issue/events'))
  @ApiOperation({
    summary: "An issue's events, newest first (reporter of its project)",
  })
  @ApiParam({ name: 'issue', description: 'The issue (error) id.' })
  @PageQueries()
  @ApiOkResponse({
    description: "Sentry's event summaries; `Link` as on the issue list.",
    schema: { type: 'array', items: SENTRY_EVENT_SUMMARY_SCHEMA },
  })
  async events(
    @CurrentCaller() caller: Caller,
    @Param('issue') issue: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const page = await this.service.events(caller, issue, queryOf(req));
    setSentryLink(res, req, this.baseUrl.of(req), page.nextCursor);
    send(res, 200, page.events);
  }

  @Get(paths('issues/:issue/events/:event'))
  @ApiOperation({
    summary:
      'One whole event of an issue: an event id, `latest` or `oldest` (reporter)',
  })
  @ApiParam({ name: 'issue', description: 'The issue (error) id.' })
  @ApiParam({
    name: 'event',
    description: 'An event id (32 hex digits), `latest` or `oldest`.',
  })
  @ApiOkResponse({ schema: SENTRY_EVENT_SCHEMA })
  async event(
    @CurrentCaller() caller: Caller,
    @Param('issue') issue: string,
    @Param('event') event: string,
    @Res() res: Response,
  ): Promise<void> {
    send(res, 200, await this.service.event(caller, issue, event));
  }

  @Get(paths('issues/:issue/tags'))
  @ApiOperation({
    summary:
      "An issue's tags and top values, over its latest 1000 events (reporter)",
  })
  @ApiParam({ name: 'issue', description: 'The issue (error) id.' })
  @ApiOkResponse({
    schema: { type: 'array', items: SENTRY_TAG_KEY_SCHEMA },
  })
  async tags(
    @CurrentCaller() caller: Caller,
    @Param('issue') issue: string,
    @Res() res: Response,
  ): Promise<void> {
    send(res, 200, await this.service.tags(caller, issue));
  }

  @Get(paths('issues/:issue/tags/:key/values'))
  @ApiOperation({
    summary:
      "One tag's values, most frequent first (at most 100), over the issue's latest 1000 events (reporter)",
  })
  @ApiParam({ name: 'issue', description: 'The issue (error) id.' })
  @ApiParam({ name: 'key', description: 'The tag key.' })
  @ApiOkResponse({
    schema: { type: 'array', items: SENTRY_TAG_VALUE_SCHEMA },
  })
  async tagValues(
    @CurrentCaller() caller: Caller,
    @Param('issue') issue: string,
    @Param('key') key: string,
    @Res() res: Response,
  ): Promise<void> {
    send(res, 200, await this.service.tagValues(caller, issue, key));
  }

  @Put(paths('projects/:org/:project/issues'))
  @ApiOperation({
    summary:
      '`issues resolve|mute|unresolve`: set the status (ignore conditions included) of the issues `id=` names, or of those `status=`/`query` take; or merge the issues `id=` names (developer)',
  })
  @OrgParam()
  @ApiParam({ name: 'project', description: 'Project id or path.' })
  @ApiQuery({
    name: 'id',
    required: false,
    isArray: true,
    description: 'Issue ids (repeated, at most 1000).',
  })
  @ApiQuery({
    name: 'status',
    required: false,
    description:
      'Without `id`: the issues of this status (`unresolved`, `resolved`, `ignored`, `muted`).',
  })
  @ApiQuery({
    name: 'query',
    required: false,
    description:
      'Without `id`: a search as on the list (`is:unresolved` by default); the first 1000 matches, most recently seen first.',
  })
  @ApiBody({
    schema: {
      type: 'object',
      properties: {
        status: {
          type: 'string',
          enum: ['unresolved', 'resolved', 'ignored', 'muted'],
        },
        statusDetails: {
          type: 'object',
          description:
            'With `ignored`: reopen after `ignoreDuration` minutes, `ignoreCount` more events or `ignoreUserCount` more users (the first reached); windows and release conditions are a 400.',
          properties: {
            ignoreDuration: { type: 'integer', minimum: 1 },
            ignoreCount: { type: 'integer', minimum: 1 },
            ignoreUserCount: { type: 'integer', minimum: 1 },
          },
        },
        snoozeDuration: {
          type: 'integer',
          nullable: true,
          description: 'Minutes, as `statusDetails.ignoreDuration`.',
        },
        merge: {
          type: 'integer',
          enum: [1],
          description:
            'Instead of `status`: merge the issues `id=` names (at least two, at most 100) into the one seen most often.',
        },
      },
    },
  })
  @ApiOkResponse({
    description: 'The change made.',
    schema: {
      type: 'object',
      properties: {
        status: { type: 'string' },
        statusDetails: { type: 'object' },
        merge: {
          type: 'object',
          properties: {
            parent: { type: 'string' },
            children: { type: 'array', items: { type: 'string' } },
          },
        },
      },
    },
  })
  @ApiNoContentResponse({ description: 'No issue matched.' })
  async bulkUpdate(
    @CurrentCaller() caller: Caller,
    @Param('project') project: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const result = await this.service.bulkUpdate(
      caller,
      project,
      queryOf(req),
      await readJson(req),
    );
    if (result) send(res, 200, result);
    else {
      res.statusCode = 204;
      res.end();
    }
  }

  /** The error's page in the web UI, Sentry's `permalink`. */
  private permalink(
    req: Request,
  ): (access: ProjectAccess, errorId: string) => string {
    const base = this.baseUrl.of(req);
    return (access, errorId) =>
      `${base}/projects/${access.project.id}/error_tracking/${errorId}`;
  }
}
