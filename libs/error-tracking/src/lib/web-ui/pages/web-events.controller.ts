import { Get, Inject, Param, Query } from '@nestjs/common';
import { CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { AttachmentsService } from '../../attachments/attachments.service';
import { AccessLevel } from '../../common/error-tracking.constants';
import { ErrorEventsService } from '../../errors/error-events.service';
import { ErrorsService } from '../../errors/errors.service';
import { parseBigId } from '../../http/path-params';
import type { ProjectAccess } from '../../projects/project.types';
import { WebProjectAt } from '../toolkit/project-access.pipe';
import { Web } from '../toolkit/web-context';
import type { WebContext } from '../toolkit/web-context';
import { WebController } from '../toolkit/web-controller.decorator';
import { queryText, searchedPage } from '../toolkit/list-search';
import { eventListPage } from './event-list.page';
import { eventPage } from './event.page';

const PER_PAGE = 20;

/** An error's events: the paged, searchable list and each event's page. */
@WebController('projects/:id/error_tracking/:error_id/events')
export class WebEventsController {
  constructor(
    private readonly errors: ErrorsService,
    private readonly errorEvents: ErrorEventsService,
    private readonly attachments: AttachmentsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  async list(
    @Web() ctx: WebContext,
    @WebProjectAt(AccessLevel.Reporter) access: ProjectAccess,
    @Param('error_id') errorId: string,
    @Query() params: Record<string, unknown>,
  ): Promise<string> {
    const error = await this.errors.find(access, parseBigId(errorId, 'Error'));
    // `search` is the box's older name, still in bookmarks.
    const query =
      queryText(params['query'], 1000) || queryText(params['search'], 1000);
    const cursor = queryText(params['cursor'], 1000) || undefined;
    const { page, queryError } = await searchedPage(() =>
      this.errors.events(access, error.id, PER_PAGE, cursor, { query }),
    );
    return eventListPage(ctx, {
      project: access.project,
      accessLevel: access.accessLevel,
      error,
      query,
      queryError,
      cursor,
      items: page.items,
      nextCursor: page.nextCursor,
      now: this.clock.now(),
    });
  }

  @Get(':event_id')
  async event(
    @Web() ctx: WebContext,
    @WebProjectAt(AccessLevel.Reporter) access: ProjectAccess,
    @Param('error_id') errorId: string,
    @Param('event_id') eventId: string,
  ): Promise<string> {
    const at = await this.errorEvents.eventAt(
      access,
      parseBigId(errorId, 'Error'),
      eventId,
    );
    const attachments = await this.attachments.list(access, at.eventId);
    return eventPage(ctx, {
      project: access.project,
      accessLevel: access.accessLevel,
      error: at.error,
      eventId: at.eventId,
      payload: at.event.payload,
      timestamp: at.event.timestamp,
      receivedAt: at.event.receivedAt,
      neighbours: at.neighbours,
      attachments,
      now: this.clock.now(),
    });
  }
}
