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
  EventPosition,
  EventSummary,
  Frequency,
  IgnoreUntil,
  StoredEvent,
} from './error.types';
import { ErrorsRepository } from './errors.repository';
import type { ErrorFilter } from './errors.repository';
import { EVENT_SEARCH_SCAN_MAX } from './event-search';
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
function eventCursor(position: EventPosition): string {
  return encodePosition({ at: position.timestamp, id: position.eventId });
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

/** What narrows a list of errors, and the errors a bulk change takes. */
export type ErrorListFilter = Pick<
  ErrorListOptions,
  | 'status'
  | 'search'
  | 'environment'
  | 'release'
  | 'level'
  | 'query'
  | 'defaultStatus'
>;

/** A list's search terms: its `query`, and its `level` filter as a tag term. */
function errorListTerms(options: ErrorListFilter, now: Date): SearchTerm[] {
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

/** The repository's filter of a list's: its `query` parsed (`now` for relative times). */
function errorFilterOf(
  filter: ErrorListFilter,
  now: Date,
): Omit<ErrorFilter, 'projectId'> {
  const terms = errorListTerms(filter, now);
  return {
    status:
      filter.status ??
      (terms.some((term) => term.kind === 'status')
        ? undefined
        : filter.defaultStatus),
    terms,
    search: filter.search || undefined,
    environment: filter.environment || environmentOfTerms(terms),
    release: filter.release || undefined,
  };
}

/**
 * The one environment a search narrows to (`environment:name`, neither
 * negated nor a wildcard, and no other environment term): the list's
 * counts are then that environment's, as with the `environment` filter.
 */
function environmentOfTerms(terms: readonly SearchTerm[]): string | undefined {
  const named = terms.filter(
    (term) => term.kind === 'tag' && term.key === 'environment',
  );
  const [only] = named;
  return named.length === 1 &&
    only?.kind === 'tag' &&
    !only.negated &&
    !only.value.includes('*')
    ? only.value
    : undefined;
}

/** Which errors a bulk change takes: named ones, or those a filter takes. */
export type BulkTarget =
  | { readonly ids: readonly string[] }
  | {
      readonly filter: ErrorListFilter;
      readonly limit: number;
      readonly refuseBeyond?: boolean;
    };

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
    await this.errors.reopenExpiredIgnores(access.project.id, this.clock.now());
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
    const template = this.emptyFrequency();
    const rows = await this.errors.list(
      {
        projectId: access.project.id,
        ...errorFilterOf(options, this.clock.now()),
        sort: options.sort,
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
    await this.errors.reopenExpiredIgnores(access.project.id, this.clock.now());
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

  /**
   * A page of the error's events, newest first; with a `query` (Sentry's
   * search syntax) or a `search` (free text), those that match both among a
   * bounded read (`EVENT_SEARCH_SCAN_MAX`), so a page may be short and
   * still have a next one.
   */
  async events(
    access: ProjectAccess,
    errorId: string,
    limit: number,
    cursor?: string,
    filter: { readonly query?: string; readonly search?: string } = {},
  ): Promise<Page<EventSummary>> {
    const terms = parseSearch(filter.query ?? '', 'events', this.clock.now());
    if (filter.search) terms.push({ kind: 'text', text: filter.search });
    const error = await this.find(access, errorId);
    let after: EventPosition | undefined;
    if (cursor !== undefined) {
      const position = decodePosition(cursor, isEventId);
      if (!position)
        throw ErrorTrackingError.invalidParameter('cursor is invalid');
      after = { timestamp: position.at, eventId: position.id };
    }
    if (terms.length > 0)
      return this.searchEvents(error.id, limit, terms, after);
    const rows = await this.errors.listEvents(error.id, limit + 1, after);
    const { items, next } = keysetPage(rows, limit);
    return { items, nextCursor: next ? eventCursor(next) : undefined };
  }

  private async searchEvents(
    errorId: string,
    limit: number,
    terms: readonly SearchTerm[],
    after?: EventPosition,
  ): Promise<Page<EventSummary>> {
    const { hits, scanEdge } = await this.errors.searchEvents(errorId, {
      terms,
      limit: limit + 1,
      scanMax: EVENT_SEARCH_SCAN_MAX,
      after,
    });
    const { items, next } = keysetPage(hits, limit);
    const position = next ?? scanEdge;
    return {
      items,
      nextCursor: position ? eventCursor(position) : undefined,
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

  /**
   * Sets the status (`ignoreUntil`: the condition that ends an ignore);
   * resolving closes the linked issue (its iid is returned).
   */
  async updateStatus(
    access: ProjectAccess,
    errorId: string,
    status: ErrorStatus,
    ignoreUntil: IgnoreUntil = {},
  ): Promise<{ error: ErrorRecord; closedIssueIid: number | null }> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const error = await this.errors.setStatus(
        access.project.id,
        errorId,
        status,
        now,
        tx,
        ignoreUntil,
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
   * those `filter` takes, most recently seen first: the first `limit`
   * (Sentry's bulk update), or all of them, refused when they are more than
   * `limit` (`refuseBeyond`: a search that took more than the caller saw
   * changes nothing). Each one resolved closes its linked issue. Returns the
   * errors changed and the issues closed.
   */
  async updateStatusOfMany(
    access: ProjectAccess,
    target: BulkTarget,
    status: ErrorStatus,
    ignoreUntil: IgnoreUntil = {},
  ): Promise<{ errors: ErrorRecord[]; closedIssueIids: number[] }> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const ids =
        'ids' in target
          ? target.ids
          : await this.errors.idsMatching(
              {
                ...errorFilterOf(target.filter, now),
                projectId: access.project.id,
              },
              target.limit + (target.refuseBeyond ? 1 : 0),
              tx,
            );
      if (
        !('ids' in target) &&
        target.refuseBeyond &&
        ids.length > target.limit
      )
        throw ErrorTrackingError.badRequest(
          `more than ${target.limit} errors match: narrow the search`,
        );
      if (ids.length === 0) return { errors: [], closedIssueIids: [] };
      const changed = await this.errors.setStatusOfMany(
        access.project.id,
        ids,
        status,
        now,
        tx,
        ignoreUntil,
      );
      const closedIssueIids: number[] = [];
      for (const error of changed) {
        const closed = await this.issueFollowsError.closeOnResolve(
          error,
          now,
          tx,
        );
        if (closed !== null) closedIssueIids.push(closed);
      }
      return { errors: changed, closedIssueIids };
    });
  }

  /** How many errors a filter takes, counted up to `limit` (a confirmation's figure). */
  countMatching(
    access: ProjectAccess,
    filter: ErrorListFilter,
    limit: number,
  ): Promise<number> {
    return this.errors.countMatching(
      {
        ...errorFilterOf(filter, this.clock.now()),
        projectId: access.project.id,
      },
      limit,
    );
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
