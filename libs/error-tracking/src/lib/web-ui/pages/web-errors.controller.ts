import { Body, Get, Inject, Param, Query, Post, Res } from '@nestjs/common';
import { CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';
import type { Response } from 'express';

import { AccessLevel } from '../../common/error-tracking.constants';
import { parseBigId } from '../../http/path-params';
import { WebProjectAt } from '../toolkit/project-access.pipe';
import type { ProjectAccess } from '../../projects/project.types';
import { withNotice } from '../toolkit/notices';
import { formField, webCaller } from '../toolkit/web-caller';
import { Web } from '../toolkit/web-context';
import type { WebContext } from '../toolkit/web-context';
import { WebController } from '../toolkit/web-controller.decorator';
import { errorDetailPage } from './error-detail.page';
import { errorListPage } from './error-list.page';
import type { ErrorListQuery, ListSelection } from './error-list.page';
import {
  ERROR_SORTS,
  ERROR_STATUSES,
  EVENT_LEVELS,
} from '../../errors/error.types';
import type { ErrorSort, ErrorStatus } from '../../errors/error.types';
import { ErrorsService } from '../../errors/errors.service';
import type { ErrorWithFrequency, Page } from '../../errors/errors.service';
import {
  ErrorTrackingError,
  ErrorTrackingErrorCode,
} from '../../common/error-tracking.errors';
import { dsnOf } from '../../http/base-url';
import { SettingsService } from '../../settings/settings.service';
import { ErrorTagsService } from '../../errors/error-tags.service';
import { eventStackTrace, toStackTraceEntry } from '../../errors/stack-trace';

const PER_PAGE = 20;

function oneOf<T extends string>(
  value: unknown,
  allowed: readonly T[],
  fallback: T,
): T {
  return typeof value === 'string' &&
    (allowed as readonly string[]).includes(value)
    ? (value as T)
    : fallback;
}

function text(value: unknown, max: number): string {
  return typeof value === 'string' ? value.trim().slice(0, max) : '';
}

/** Monitor > Error Tracking: the list, one error, its status and issue. */
@WebController('projects/:id/error_tracking')
export class WebErrorsController {
  constructor(
    private readonly errors: ErrorsService,
    private readonly settings: SettingsService,
    private readonly tags: ErrorTagsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  async list(
    @Web() ctx: WebContext,
    @WebProjectAt(AccessLevel.Reporter) access: ProjectAccess,
    @Query() params: Record<string, unknown>,
  ): Promise<string> {
    const query: ErrorListQuery = {
      status: oneOf<ErrorStatus>(
        params['status'],
        ERROR_STATUSES,
        'unresolved',
      ),
      sort: oneOf<ErrorSort>(params['sort'], ERROR_SORTS, 'last_seen'),
      // `search` is the box's older name, still in bookmarks.
      query: text(params['query'], 1000) || text(params['search'], 1000),
      environment: text(params['environment'], 200),
      release: text(params['release'], 200),
      level: oneOf(params['level'], ['', ...EVENT_LEVELS], ''),
      cursor: text(params['cursor'], 1000) || undefined,
    };
    const [found, environments, releases] = await Promise.all([
      this.listPage(access, query),
      this.errors.environments(access),
      this.tags.releases(access),
    ]);
    const { page, queryError } = found;
    return errorListPage(ctx, {
      project: access.project,
      accessLevel: access.accessLevel,
      query,
      items: page.items,
      nextCursor: page.nextCursor,
      environments,
      releases,
      selection: await this.selection(query, page.items),
      queryError,
      now: this.clock.now(),
      notice: params['notice'],
      firstErrorDsn:
        page.items.length === 0
          ? await this.firstErrorDsn(ctx, access)
          : undefined,
    });
  }

  /** A page of the list; a bad query is told beside the box, not as an error page. */
  private async listPage(
    access: ProjectAccess,
    query: ErrorListQuery,
  ): Promise<{ page: Page<ErrorWithFrequency>; queryError?: string }> {
    try {
      return {
        page: await this.errors.list(access, {
          ...query,
          environment: query.environment || undefined,
          release: query.release || undefined,
          level: query.level || undefined,
          limit: PER_PAGE,
        }),
      };
    } catch (error) {
      if (
        error instanceof ErrorTrackingError &&
        error.code === ErrorTrackingErrorCode.BadRequest
      )
        return { page: { items: [] }, queryError: error.message };
      throw error;
    }
  }

  /**
   * The rows' counts under the pickers' selection, when exactly one picker
   * selects (the per-error tag counts answer one value; several at once
   * would need the events).
   */
  private async selection(
    query: ErrorListQuery,
    items: readonly ErrorWithFrequency[],
  ): Promise<ListSelection | undefined> {
    const picked = (['environment', 'release', 'level'] as const).filter(
      (key) => query[key] !== '',
    );
    const [key] = picked;
    if (picked.length !== 1 || key === undefined || items.length === 0)
      return undefined;
    const value = query[key];
    const counts = await this.tags.valueCounts(
      items.map((item) => item.error.id),
      key,
      value,
    );
    return { key, value, counts };
  }

  /**
   * The DSN to start with, for a maintainer (who sees the keys) of an
   * enabled project that has no error in any status yet.
   */
  private async firstErrorDsn(
    ctx: WebContext,
    access: ProjectAccess,
  ): Promise<string | undefined> {
    if (
      !access.project.trackingActive ||
      access.accessLevel < AccessLevel.Maintainer ||
      (await this.errors.hasErrors(access))
    )
      return undefined;
    const { keys } = await this.settings.listKeys(access, 100, 0);
    const key = keys.find((candidate) => candidate.active);
    return key
      ? dsnOf(ctx.baseUrl(), key.publicKey, access.project.id)
      : undefined;
  }

  @Get(':error_id')
  async detail(
    @Web() ctx: WebContext,
    @WebProjectAt(AccessLevel.Reporter) access: ProjectAccess,
    @Param('error_id') errorId: string,
    @Query('notice') notice: unknown,
  ): Promise<string> {
    const { error, frequency } = await this.errors.get(
      access,
      parseBigId(errorId, 'Error'),
    );
    const [latest, events, tagDistribution, days] = await Promise.all([
      this.errors.latestEvent(access, error),
      this.errors.events(access, error.id, 10),
      this.tags.distribution(access, error.id),
      this.tags.dailyCounts(access, error.id),
    ]);
    const environment = latest?.payload['environment'];
    const trace = latest ? eventStackTrace(latest.payload) : undefined;
    return errorDetailPage(ctx, {
      project: access.project,
      accessLevel: access.accessLevel,
      error,
      frequency,
      stackTrace: trace ? trace.frames.map(toStackTraceEntry) : [],
      stackTraceCrashed: trace?.crashed ?? false,
      environment: typeof environment === 'string' ? environment : null,
      events: events.items,
      tagDistribution,
      days,
      canTriage: access.accessLevel >= AccessLevel.Developer,
      now: this.clock.now(),
      notice,
    });
  }

  @Post(':error_id/status')
  async status(
    @WebProjectAt(AccessLevel.Developer) access: ProjectAccess,
    @Param('error_id') errorId: string,
    @Body() body: unknown,
    @Res() res: Response,
  ): Promise<void> {
    const status = oneOf<ErrorStatus>(
      formField(body, 'status'),
      ERROR_STATUSES,
      'unresolved',
    );
    const { error } = await this.errors.updateStatus(
      access,
      parseBigId(errorId, 'Error'),
      status,
    );
    res.redirect(
      303,
      withNotice(
        `/projects/${access.project.id}/error_tracking/${error.id}`,
        status,
      ),
    );
  }

  @Post(':error_id/issue')
  async createIssue(
    @Web() ctx: WebContext,
    @WebProjectAt(AccessLevel.Developer) access: ProjectAccess,
    @Param('error_id') errorId: string,
    @Res() res: Response,
  ): Promise<void> {
    const caller = webCaller(ctx);
    const parsed = parseBigId(errorId, 'Error');
    const { issue, created } = await this.errors.createIssue(
      caller,
      access,
      parsed,
      `${ctx.baseUrl()}/projects/${access.project.id}/error_tracking/${parsed}`,
    );
    const path = `/projects/${access.project.id}/issues/${issue.iid}`;
    res.redirect(303, created ? withNotice(path, 'issue-created') : path);
  }
}
