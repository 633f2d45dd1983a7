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
import type { ErrorListQuery } from './error-list.page';
import { ERROR_SORTS, ERROR_STATUSES } from '../../errors/error.types';
import type { ErrorSort, ErrorStatus } from '../../errors/error.types';
import { ErrorsService } from '../../errors/errors.service';
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
      search: text(params['search'], 1000),
      environment: text(params['environment'], 200),
      cursor: text(params['cursor'], 1000) || undefined,
    };
    const [page, environments] = await Promise.all([
      this.errors.list(access, { ...query, limit: PER_PAGE }),
      this.errors.environments(access),
    ]);
    return errorListPage(ctx, {
      project: access.project,
      accessLevel: access.accessLevel,
      query,
      items: page.items,
      nextCursor: page.nextCursor,
      environments,
      now: this.clock.now(),
      notice: params['notice'],
      firstErrorDsn:
        page.items.length === 0
          ? await this.firstErrorDsn(ctx, access)
          : undefined,
    });
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
    const [latest, events, tagDistribution] = await Promise.all([
      this.errors.latestEvent(access, error),
      this.errors.events(access, error.id, 10),
      this.tags.distribution(access, error.id),
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
