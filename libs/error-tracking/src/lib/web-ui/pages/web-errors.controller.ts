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
import { queryText, searchedPage } from '../toolkit/list-search';
import { ignoreUntilOfField } from './error-bulk-actions.view';
import { errorDetailPage } from './error-detail.page';
import { errorListPage } from './error-list.page';
import type { ErrorListQuery, ListSelection } from './error-list.page';
import {
  ERROR_SORTS,
  ERROR_STATUSES,
  EVENT_LEVELS,
} from '../../errors/error.types';
import type { ErrorSort, ErrorStatus } from '../../errors/error.types';
import { ErrorEventsService } from '../../errors/error-events.service';
import type { ErrorEventAt } from '../../errors/error-events.service';
import { ErrorsService } from '../../errors/errors.service';
import type { ErrorWithFrequency } from '../../errors/errors.service';
import { ErrorTrackingError } from '../../common/error-tracking.errors';
import { dsnOf } from '../../http/base-url';
import { SettingsService } from '../../settings/settings.service';
import { ErrorTagsService } from '../../errors/error-tags.service';
import { AttachmentsService } from '../../attachments/attachments.service';

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

/** The environment of the error's latest event (its Tags card). */
function environmentOf(latest: ErrorEventAt | undefined): string | null {
  const environment = latest?.event.payload['environment'];
  return typeof environment === 'string' ? environment : null;
}

/** Monitor > Error Tracking: the list, one error, its status and issue. */
@WebController('projects/:id/error_tracking')
export class WebErrorsController {
  constructor(
    private readonly errors: ErrorsService,
    private readonly errorEvents: ErrorEventsService,
    private readonly settings: SettingsService,
    private readonly tags: ErrorTagsService,
    private readonly attachments: AttachmentsService,
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
      query:
        queryText(params['query'], 1000) || queryText(params['search'], 1000),
      environment: queryText(params['environment'], 200),
      release: queryText(params['release'], 200),
      level: oneOf(params['level'], ['', ...EVENT_LEVELS], ''),
      cursor: queryText(params['cursor'], 1000) || undefined,
    };
    const [found, environments, releases] = await Promise.all([
      searchedPage(() =>
        this.errors.list(access, {
          ...query,
          environment: query.environment || undefined,
          release: query.release || undefined,
          level: query.level || undefined,
          limit: PER_PAGE,
        }),
      ),
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

  /**
   * The rows' counts under the pickers' selection: an environment's, which
   * the list's counts are already, or else that of the one picker that
   * selects (the per-error tag counts answer one value; several at once
   * would need the events).
   */
  private async selection(
    query: ErrorListQuery,
    items: readonly ErrorWithFrequency[],
  ): Promise<ListSelection | undefined> {
    if (query.environment !== '')
      return {
        key: 'environment',
        value: query.environment,
        counts: new Map(items.map(({ error }) => [error.id, error.count])),
      };
    const picked = (['release', 'level'] as const).filter(
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
      this.errorEvents.latestOf(access, error),
      this.errors.events(access, error.id, 10),
      this.tags.distribution(access, error.id),
      this.tags.dailyCounts(access, error.id),
    ]);
    const attachments = latest
      ? await this.attachments.list(access, latest.eventId)
      : [];
    return errorDetailPage(ctx, {
      project: access.project,
      accessLevel: access.accessLevel,
      error,
      frequency,
      latest,
      environment: environmentOf(latest),
      events: events.items,
      tagDistribution,
      days,
      attachments:
        latest && attachments.length > 0
          ? {
              projectId: access.project.id,
              errorId: error.id,
              eventId: latest.eventId,
              attachments,
            }
          : undefined,
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
    const until = ignoreUntilOfField(formField(body, 'ignore'));
    if (!until) throw ErrorTrackingError.badRequest('Unknown ignore choice.');
    const { error } = await this.errors.updateStatus(
      access,
      parseBigId(errorId, 'Error'),
      status,
      status === 'ignored' ? until : {},
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
