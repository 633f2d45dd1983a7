import { Body, Post, Res } from '@nestjs/common';
import type { Response } from 'express';

import { AccessLevel } from '../../common/error-tracking.constants';
import { ErrorTrackingError } from '../../common/error-tracking.errors';
import { ErrorMergeService } from '../../errors/error-merge.service';
import {
  ERROR_STATUSES,
  EVENT_LEVELS,
  MAX_BULK_ERRORS,
} from '../../errors/error.types';
import type { ErrorStatus } from '../../errors/error.types';
import { ErrorsService } from '../../errors/errors.service';
import type { ProjectAccess } from '../../projects/project.types';
import { withNotice } from '../toolkit/notices';
import type { NoticeKey } from '../toolkit/notices';
import { WebProjectAt } from '../toolkit/project-access.pipe';
import { formField } from '../toolkit/web-caller';
import { Web } from '../toolkit/web-context';
import type { WebContext } from '../toolkit/web-context';
import { WebController } from '../toolkit/web-controller.decorator';
import { ignoreUntilOfField } from './error-bulk-actions.view';
import type { BulkFilters } from './error-bulk-actions.view';
import {
  bulkConfirmPage,
  listHrefOf,
  mergeConfirmPage,
} from './error-triage.page';

const ERROR_ID = /^[1-9]\d{0,18}$/;
/** A page shows 20 rows; the form parser takes 50 fields, ids and the rest. */
const MAX_SELECTED = 40;

const DONE: Record<ErrorStatus, NoticeKey> = {
  resolved: 'bulk-resolved',
  ignored: 'bulk-ignored',
  unresolved: 'bulk-unresolved',
};

/** The ids ticked (one field or several), each a valid id, deduplicated. */
function selectedIds(body: unknown): string[] {
  const value = (body as Record<string, unknown> | null)?.['ids'];
  const ids = Array.isArray(value) ? value : value === undefined ? [] : [value];
  if (
    ids.length > MAX_SELECTED ||
    !ids.every((id) => typeof id === 'string' && ERROR_ID.test(id))
  )
    throw ErrorTrackingError.badRequest('The selection is not valid.');
  return [...new Set(ids as string[])];
}

function filtersOf(body: unknown): BulkFilters {
  const status = formField(body, 'status');
  const level = formField(body, 'level');
  return {
    status: (ERROR_STATUSES as readonly string[]).includes(status)
      ? status
      : 'unresolved',
    query: formField(body, 'query', 1000).trim(),
    environment: formField(body, 'environment', 200).trim(),
    release: formField(body, 'release', 200).trim(),
    level: (EVENT_LEVELS as readonly string[]).includes(level) ? level : '',
  };
}

/**
 * The list's triage: the bar's buttons on the rows ticked, or (confirmed
 * first) on every error the search takes; merging asks which error to keep.
 */
@WebController('projects/:id/error_tracking')
export class WebErrorTriageController {
  constructor(
    private readonly errors: ErrorsService,
    private readonly merges: ErrorMergeService,
  ) {}

  @Post('bulk')
  async bulk(
    @Web() ctx: WebContext,
    @WebProjectAt(AccessLevel.Developer) access: ProjectAccess,
    @Body() body: unknown,
    @Res() res: Response,
  ): Promise<void> {
    const filters = filtersOf(body);
    const list = listHrefOf(access.project.id, filters);
    const action = formField(body, 'action');
    const ids = selectedIds(body);
    const allMatching = formField(body, 'all_matching') === '1';
    if (action === 'merge') {
      if (ids.length < 2) {
        res.redirect(303, withNotice(list, 'merge-needs-two'));
        return;
      }
      const errors = await Promise.all(
        ids.map((id) => this.errors.find(access, id)),
      );
      errors.sort((a, b) => b.count - a.count);
      res.send(mergeConfirmPage(ctx, { ...access, errors, filters }));
      return;
    }
    const status = (ERROR_STATUSES as readonly string[]).includes(action)
      ? (action as ErrorStatus)
      : undefined;
    const ignore = formField(body, 'ignore');
    const until = ignoreUntilOfField(ignore);
    if (!status || !until)
      throw ErrorTrackingError.badRequest('Unknown action.');
    const ignoreUntil = status === 'ignored' ? until : {};
    if (!allMatching && ids.length === 0) {
      res.redirect(303, withNotice(list, 'nothing-selected'));
      return;
    }
    const filter = {
      status: filters.status as ErrorStatus,
      query: filters.query,
      environment: filters.environment || undefined,
      release: filters.release || undefined,
      level: filters.level || undefined,
    };
    if (allMatching && formField(body, 'confirmed') !== '1') {
      const count = await this.errors.countMatching(
        access,
        filter,
        MAX_BULK_ERRORS + 1,
      );
      if (count > MAX_BULK_ERRORS) res.status(400);
      res.send(
        bulkConfirmPage(ctx, {
          ...access,
          status,
          ignore: status === 'ignored' ? ignore : '',
          filters,
          count,
          limit: MAX_BULK_ERRORS,
        }),
      );
      return;
    }
    await this.errors.updateStatusOfMany(
      access,
      allMatching
        ? { filter, limit: MAX_BULK_ERRORS, refuseBeyond: true }
        : { ids },
      status,
      ignoreUntil,
    );
    res.redirect(303, withNotice(list, DONE[status]));
  }

  @Post('merge')
  async merge(
    @WebProjectAt(AccessLevel.Developer) access: ProjectAccess,
    @Body() body: unknown,
    @Res() res: Response,
  ): Promise<void> {
    const ids = selectedIds(body);
    const kept = formField(body, 'kept');
    if (!ids.includes(kept))
      throw ErrorTrackingError.badRequest('Choose the error to keep.');
    await this.merges.merge(
      access,
      kept,
      ids.filter((id) => id !== kept),
    );
    res.redirect(
      303,
      withNotice(
        `/projects/${access.project.id}/error_tracking/${kept}`,
        'merged',
      ),
    );
  }
}
