import { Inject, Injectable } from '@nestjs/common';
import {
  CLOCK,
  decodeCursor,
  decodePosition,
  encodeCursor,
  encodePosition,
  keysetPage,
} from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import type { Caller } from '../accounts/account.types';
import { ErrorTrackingError } from '../common/error-tracking.errors';
import { hourOf } from './hours';
import { IssueFollowsError } from '../issues/issue-follows-error';
import type { IssueRecord } from '../issues/issue.types';
import { IssuesRepository } from '../issues/issues.repository';
import { ErrorTrackingDatabase } from '../persistence/error-tracking.database';
import { parseSearch } from './sentry-search';
import type { SearchTerm } from './sentry-search';
import type { ProjectAccess } from '../projects/project.types';
import type {
  ErrorRecord,
  ErrorSort,
  ErrorStatus,
  EventSummary,
  Frequency,
  StoredEvent,
} from './error.types';
import { ErrorsRepository } from './errors.repository';
import type { ErrorFilter, TagCount } from './errors.repository';
import { issueDescription } from './issue-description';
import { isEventId, isValidSortValue } from './list-cursor';
import { stackFrames, toStackTraceEntry } from './stack-trace';
import type { StackTraceEntry } from './stack-trace';

const HOUR_MS = 3_600_000;

function frequencyStart(template: Frequency): Date {
  return new Date((template[0] as [number, number])[0] * 1000);
}

/** The 24 buckets of `template` with the counts of `hours` filled in. */
function fillFrequency(
  template: Frequency,
  hours: ReadonlyArray<[number, number]>,
): Frequency {
  const counts = new Map(hours.map(([at, count]) => [Number(at), count]));
  return template.map(([at]) => [at, counts.get(at) ?? 0]);
}
const SORT_VALUE: Record<ErrorSort, (e: ErrorRecord) => string> = {
  last_seen: (e) => e.lastSeen.toISOString(),
  first_seen: (e) => e.firstSeen.toISOString(),
  frequency: (e) => String(e.count),
};

export interface ErrorListOptions {
  /** Absent: every status. */
  readonly status?: ErrorStatus;
  readonly sort: ErrorSort;
  readonly search?: string;
  readonly environment?: string;
  readonly release?: string;
  /** GitLab's `level` filter: the error has an event of that level. */
  readonly level?: string;
  /** Sentry's search syntax (`parseSearch`). */
  readonly query?: string;
  /** The status when neither `status` nor an `is:` term of `query` names one. */
  readonly defaultStatus?: ErrorStatus;
  readonly cursor?: string;
  readonly limit: number;
}

/** A list's search terms: its `query`, and its `level` filter as a tag term. */
function errorListTerms(options: ErrorListOptions, now: Date): SearchTerm[] {
  const terms = parseSearch(options.query ?? '', 'errors', now);
  if (options.level)
    terms.push({
      kind: 'tag',
      key: 'level',
      value: options.level,
      negated: false,
    });
  return terms;
}

export interface Page<T> {
  readonly items: T[];
  readonly nextCursor?: string;
}

export interface ErrorWithFrequency {
  readonly error: ErrorRecord;
  readonly frequency: Frequency;
}

export interface ErrorStackTrace {
  readonly errorId: string;
  readonly dateReceived: Date | null;
  readonly entries: StackTraceEntry[];
}

/** Reading and triaging grouped errors (the API and, later, the web pages). */
@Injectable()
export class ErrorsService {
  constructor(
    private readonly db: ErrorTrackingDatabase,
    private readonly errors: ErrorsRepository,
    private readonly issues: IssuesRepository,
    private readonly issueFollowsError: IssueFollowsError,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(
    access: ProjectAccess,
    options: ErrorListOptions,
  ): Promise<Page<ErrorWithFrequency>> {
    let after: { value: string; id: string } | undefined;
    if (options.cursor !== undefined) {
      const parts = decodeCursor(options.cursor, 3);
      if (
        !parts ||
        parts[0] !== options.sort ||
        !isValidSortValue(options.sort, parts[1] as string) ||
        !/^\d{1,19}$/.test(parts[2] as string)
      )
        throw ErrorTrackingError.invalidParameter('cursor is invalid');
      after = { value: parts[1] as string, id: parts[2] as string };
    }
    const terms = errorListTerms(options, this.clock.now());
    const template = this.emptyFrequency();
    const rows = await this.errors.list(
      {
        projectId: access.project.id,
        status:
          options.status ??
          (terms.some((term) => term.kind === 'status')
            ? undefined
            : options.defaultStatus),
        terms,
        sort: options.sort,
        search: options.search || undefined,
        environment: options.environment || undefined,
        release: options.release || undefined,
        after,
        limit: options.limit + 1,
      },
      frequencyStart(template),
    );
    const { items, next } = keysetPage(rows, options.limit);
    return {
      items: items.map(({ error, hours }) => ({
        error,
        frequency: fillFrequency(template, hours),
      })),
      nextCursor: next
        ? encodeCursor([
            options.sort,
            SORT_VALUE[options.sort](next.error),
            next.error.id,
          ])
        : undefined,
    };
  }

  async get(
    access: ProjectAccess,
    errorId: string,
  ): Promise<ErrorWithFrequency> {
    const template = this.emptyFrequency();
    const found = await this.errors.findWithHours(
      access.project.id,
      errorId,
      frequencyStart(template),
    );
    if (!found) throw ErrorTrackingError.notFound('Error');
    return {
      error: found.error,
      frequency: fillFrequency(template, found.hours),
    };
  }

  /** The project an error belongs to, if it exists. */
  projectIdOf(errorId: string): Promise<number | undefined> {
    return this.errors.projectIdOf(errorId);
  }

  /** Environments seen in the project, for the web list's filter. */
  /** Whether the project has received an error yet (the list's setup help). */
  hasErrors(access: ProjectAccess): Promise<boolean> {
    return this.errors.hasAny(access.project.id);
  }

  environments(access: ProjectAccess): Promise<string[]> {
    return this.errors.environments(access.project.id, 100);
  }

  async find(access: ProjectAccess, errorId: string): Promise<ErrorRecord> {
    const error = await this.errors.find(access.project.id, errorId);
    if (!error) throw ErrorTrackingError.notFound('Error');
    return error;
  }

  async latestEvent(
    access: ProjectAccess,
    error: ErrorRecord,
  ): Promise<StoredEvent | undefined> {
    return this.errors.findEvent(
      access.project.id,
      error.id,
      error.lastEventId,
    );
  }

  /** GitLab's stack trace of the latest event, crash frame last. */
  async stackTrace(
    access: ProjectAccess,
    errorId: string,
  ): Promise<ErrorStackTrace> {
    const error = await this.find(access, errorId);
    const event = await this.latestEvent(access, error);
    return {
      errorId: error.id,
      dateReceived: event?.receivedAt ?? null,
      entries: event ? stackFrames(event.payload).map(toStackTraceEntry) : [],
    };
  }

  async events(
    access: ProjectAccess,
    errorId: string,
    limit: number,
    cursor?: string,
    query?: string,
  ): Promise<Page<EventSummary>> {
    const terms = parseSearch(query ?? '', 'events', this.clock.now());
    const error = await this.find(access, errorId);
    let after: { timestamp: Date; eventId: string } | undefined;
    if (cursor !== undefined) {
      const position = decodePosition(cursor, isEventId);
      if (!position)
        throw ErrorTrackingError.invalidParameter('cursor is invalid');
      after = { timestamp: position.at, eventId: position.id };
    }
    const rows = await this.errors.listEvents(
      error.id,
      limit + 1,
      after,
      terms,
    );
    const { items, next } = keysetPage(rows, limit);
    return {
      items,
      nextCursor: next
        ? encodePosition({ at: next.timestamp, id: next.eventId })
        : undefined,
    };
  }

  async event(
    access: ProjectAccess,
    errorId: string,
    eventId: string,
  ): Promise<StoredEvent> {
    const error = await this.find(access, errorId);
    const hex = eventId.replace(/-/g, '').toLowerCase();
    const event = /^[0-9a-f]{32}$/.test(hex)
      ? await this.errors.findEvent(access.project.id, error.id, hex)
      : undefined;
    if (!event) throw ErrorTrackingError.notFound('Event');
    return event;
  }

  /** Tag counts over the error's latest `window` events (`key`'s only when given). */
  async tagCounts(
    access: ProjectAccess,
    errorId: string,
    window: number,
    key?: string,
  ): Promise<TagCount[]> {
    const error = await this.find(access, errorId);
    return this.errors.tagCounts(error.id, window, key);
  }

  /** An error's oldest or latest kept event, by its time. */
  async edgeEvent(
    access: ProjectAccess,
    errorId: string,
    edge: 'oldest' | 'latest',
  ): Promise<{ eventId: string; event: StoredEvent }> {
    const error = await this.find(access, errorId);
    const eventId = await this.errors.edgeEventId(error.id, edge);
    const event =
      eventId === undefined
        ? undefined
        : await this.errors.findEvent(access.project.id, error.id, eventId);
    if (!event || eventId === undefined)
      throw ErrorTrackingError.notFound('Event');
    return { eventId, event };
  }

  /** Sets the status; resolving closes the linked issue (its iid is returned). */
  async updateStatus(
    access: ProjectAccess,
    errorId: string,
    status: ErrorStatus,
  ): Promise<{ error: ErrorRecord; closedIssueIid: number | null }> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const error = await this.errors.setStatus(
        access.project.id,
        errorId,
        status,
        now,
        tx,
      );
      if (!error) throw ErrorTrackingError.notFound('Error');
      const closedIssueIid = await this.issueFollowsError.closeOnResolve(
        error,
        now,
        tx,
      );
      return { error, closedIssueIid };
    });
  }

  /**
   * Sets the status of the errors named (those of the project), or else of
   * the first `limit` that `filter` takes, most recently seen first; each
   * one resolved closes its linked issue. Returns the errors changed.
   */
  async updateStatusOfMany(
    access: ProjectAccess,
    target:
      | { ids: readonly string[] }
      | { filter: Omit<ErrorFilter, 'projectId'>; limit: number },
    status: ErrorStatus,
  ): Promise<ErrorRecord[]> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const ids =
        'ids' in target
          ? target.ids
          : await this.errors.idsMatching(
              { ...target.filter, projectId: access.project.id },
              target.limit,
              tx,
            );
      if (ids.length === 0) return [];
      const changed = await this.errors.setStatusOfMany(
        access.project.id,
        ids,
        status,
        now,
        tx,
      );
      for (const error of changed)
        await this.issueFollowsError.closeOnResolve(error, now, tx);
      return changed;
    });
  }

  /**
   * The issue linked to the error: created (with the error's title and a
   * description holding the stack trace) unless one is linked already.
   */
  async createIssue(
    caller: Pick<Caller, 'user'>,
    access: ProjectAccess,
    errorId: string,
    errorUrl: string,
  ): Promise<{ issue: IssueRecord; created: boolean }> {
    const error = await this.find(access, errorId);
    const latest = await this.latestEvent(access, error);
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const locked = await this.errors.find(
        access.project.id,
        errorId,
        { forUpdate: true },
        tx,
      );
      if (!locked) throw ErrorTrackingError.notFound('Error');
      if (locked.issueIid !== null) {
        const existing = await this.issues.find(
          access.project.id,
          locked.issueIid,
          tx,
        );
        if (existing) return { issue: existing, created: false };
      }
      const issue = await this.issues.create(
        {
          projectId: access.project.id,
          title: locked.title.slice(0, 255),
          description: issueDescription(locked, errorUrl, latest?.payload),
          labels: [],
          authorId: caller.user.id,
          now,
        },
        tx,
      );
      await this.errors.linkIssue(locked.id, issue.iid, tx);
      return { issue, created: true };
    });
  }

  /** 24 hourly buckets: the current hour and the 23 before it, oldest first. */
  private emptyFrequency(): Frequency {
    const current = hourOf(this.clock.now()).getTime();
    return Array.from({ length: 24 }, (_, i): [number, number] => [
      (current - (23 - i) * HOUR_MS) / 1000,
      0,
    ]);
  }
}
