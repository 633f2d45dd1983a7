import { Inject, Injectable } from '@nestjs/common';
import { CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import type { Caller } from '../accounts/account.types';
import { AccessLevel } from '../common/error-tracking.constants';
import { ErrorTrackingError } from '../common/error-tracking.errors';
import { ErrorMergeService } from '../errors/error-merge.service';
import { ErrorTagsService } from '../errors/error-tags.service';
import { MAX_BULK_ERRORS } from '../errors/error.types';
import type { ErrorStatus, IgnoreUntil } from '../errors/error.types';
import { ignoreUntilOf } from '../errors/ignore-until';
import { ErrorsService } from '../errors/errors.service';
import { isJsonObject } from '../sentry-event/event-json';
import { ProjectAccessService } from '../projects/project-access.service';
import { sentryNotFound } from '../sourcemaps/sentry-api.errors';
import type { ProjectAccess } from '../projects/project.types';
import type { JsonObject } from '../sentry-event/event-json';
import { toSentryEvent, toSentryEventSummary } from './sentry-issue-event';
import { toSentryGroup } from './sentry-group';
import {
  MAX_TAG_VALUES,
  TOP_VALUES,
  toSentryTagKeys,
  toSentryTagValue,
} from './sentry-issue-tags';
import type { SentryTagKey, SentryTagValue } from './sentry-issue-tags';
import type { SentryGroup, StatsPeriod } from './sentry-group';
import { SENTRY_STATUSES } from '../errors/sentry-search';
import { issueFilter, parseIssueSort } from './sentry-issue-query';

/** Sentry's page size (its default and its maximum). */
export const ISSUES_PER_PAGE = 100;
/** Sentry's `BULK_MUTATION_LIMIT`: ids per request, issues per query update. */
export const BULK_MUTATION_LIMIT = MAX_BULK_ERRORS;

/** A request's query string as Express parses it. */
export type QueryString = Readonly<Record<string, unknown>>;

/** What a bulk `PUT` sets: Sentry's status names onto the errors' three. */
const UPDATE_STATUSES: Readonly<Record<string, ErrorStatus>> = {
  unresolved: 'unresolved',
  resolved: 'resolved',
  ignored: 'ignored',
  muted: 'ignored',
};

/** Sentry's conditional statuses, which need release-aware triage. */
const CONDITIONAL_STATUSES = new Set([
  'resolvedInNextRelease',
  'resolvedInRelease',
  'resolvedInCommit',
  'resolvedInUpcomingRelease',
]);

function invalid(message: string): ErrorTrackingError {
  return ErrorTrackingError.badRequest(message);
}

/** One value of a query parameter (a repeated one is refused). */
function single(query: QueryString, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(`${name}: given more than once`);
  return value;
}

function statsPeriod(query: QueryString): StatsPeriod {
  const value = single(query, 'statsPeriod') ?? '24h';
  if (value !== '' && value !== '24h')
    throw invalid(
      "statsPeriod: '' or '24h' (hourly counts of the last 24 hours are kept)",
    );
  return value;
}

function limit(query: QueryString): number {
  const value = single(query, 'limit');
  if (value === undefined || value === '') return ISSUES_PER_PAGE;
  if (!/^\d{1,4}$/.test(value) || Number(value) < 1)
    throw invalid('limit: a positive integer');
  return Math.min(Number(value), ISSUES_PER_PAGE);
}

/** The `id=` parameters of a bulk update, deduplicated. */
function issueIds(query: QueryString): string[] {
  const value = query['id'];
  if (value === undefined) return [];
  const ids = Array.isArray(value) ? value : [value];
  if (ids.length > BULK_MUTATION_LIMIT)
    throw invalid(`id: at most ${BULK_MUTATION_LIMIT} issues per request`);
  for (const id of ids)
    if (typeof id !== 'string' || !/^[1-9]\d{0,18}$/.test(id))
      throw invalid('id: not a valid issue id');
  return [...new Set(ids as string[])];
}

/** Sentry's `statusDetails` of an ignore that this tracker keeps. */
const IGNORE_DETAILS = ['ignoreDuration', 'ignoreCount', 'ignoreUserCount'];

/** A bulk update's change: a status (with its ignore condition), or a merge. */
type BulkChange =
  | {
      kind: 'status';
      name: string;
      status: ErrorStatus;
      ignoreUntil: IgnoreUntil;
    }
  | { kind: 'merge' };

function statusDetailsOf(body: JsonObject): JsonObject {
  const details = body['statusDetails'];
  if (details === undefined || details === null) return {};
  if (!isJsonObject(details)) throw invalid('statusDetails: must be an object');
  for (const key of Object.keys(details))
    if (!IGNORE_DETAILS.includes(key) && details[key] !== null)
      throw invalid(
        `statusDetails: ${key} is not supported (${IGNORE_DETAILS.join(', ')} are; windows and release conditions are not kept)`,
      );
  return details;
}

/** The body of a bulk update: a status with Sentry's ignore details, or `merge`. */
function bulkChange(body: unknown): BulkChange {
  if (!isJsonObject(body)) throw invalid('The body must be a JSON object.');
  for (const key of Object.keys(body))
    if (
      ![
        'status',
        'statusDetails',
        'snoozeDuration',
        'substatus',
        'merge',
      ].includes(key)
    )
      throw invalid(`${key}: not supported here (status and merge are)`);
  const merge = body['merge'];
  if (merge === true || merge === 1 || merge === '1') {
    if (body['status'] !== undefined)
      throw invalid('merge: goes without a status');
    return { kind: 'merge' };
  }
  if (merge !== undefined && merge !== null && merge !== false && merge !== 0)
    throw invalid('merge: 1 or true');
  const details = statusDetailsOf(body);
  const name = body['status'];
  if (typeof name !== 'string') throw invalid('status: this field is required');
  if (CONDITIONAL_STATUSES.has(name))
    throw invalid(
      `status: ${name} is not supported yet (it needs release-aware triage); use resolved`,
    );
  const status = UPDATE_STATUSES[name];
  if (!status)
    throw invalid(`status: one of ${Object.keys(UPDATE_STATUSES).join(', ')}`);
  const ignoreUntil = ignoreUntilOf(status, {
    minutes: {
      name: 'statusDetails.ignoreDuration',
      value: details['ignoreDuration'] ?? body['snoozeDuration'],
    },
    events: {
      name: 'statusDetails.ignoreCount',
      value: details['ignoreCount'],
    },
    users: {
      name: 'statusDetails.ignoreUserCount',
      value: details['ignoreUserCount'],
    },
  });
  return { kind: 'status', name, status, ignoreUntil };
}

/** Sentry's answer's `statusDetails`: the ignore condition as asked. */
function answeredDetails(ignoreUntil: IgnoreUntil, now: Date): JsonObject {
  return {
    ...(ignoreUntil.minutes !== undefined
      ? {
          ignoreDuration: ignoreUntil.minutes,
          ignoreUntil: new Date(
            now.getTime() + ignoreUntil.minutes * 60_000,
          ).toISOString(),
        }
      : {}),
    ...(ignoreUntil.events !== undefined
      ? { ignoreCount: ignoreUntil.events }
      : {}),
    ...(ignoreUntil.users !== undefined
      ? { ignoreUserCount: ignoreUntil.users }
      : {}),
  };
}

export interface IssuePage {
  readonly groups: SentryGroup[];
  readonly nextCursor?: string;
}

/**
 * Sentry's issue API over the grouped errors (`/api/0/projects/{org}/
 * {project}/issues/` and `/api/0/issues/{id}/`), for sentry-cli's `issues`
 * commands: the same personal access tokens and project permissions as the
 * GitLab API (reporter reads, developer changes status).
 */
@Injectable()
export class SentryIssuesService {
  constructor(
    private readonly errors: ErrorsService,
    private readonly merges: ErrorMergeService,
    private readonly tagCounts: ErrorTagsService,
    private readonly access: ProjectAccessService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** A page of the project's issues, as `query`, `sort` and `cursor` say. */
  async list(
    caller: Caller,
    project: string,
    query: QueryString,
    permalink: (access: ProjectAccess, errorId: string) => string,
  ): Promise<IssuePage> {
    const access = await this.access.require(
      caller,
      project,
      AccessLevel.Reporter,
    );
    const filter = issueFilter(single(query, 'query'));
    const sort = parseIssueSort(single(query, 'sort'));
    const period = statsPeriod(query);
    const cursor = single(query, 'cursor');
    const page = await this.errors.list(access, {
      ...filter,
      sort,
      limit: limit(query),
      // sentry-cli asks for its first page with an empty cursor.
      cursor: cursor || undefined,
    });
    return {
      groups: page.items.map(({ error, frequency }) =>
        toSentryGroup(access.project, error, permalink(access, error.id), {
          period,
          frequency,
        }),
      ),
      nextCursor: page.nextCursor,
    };
  }

  /**
   * One issue by id (`/api/0/issues/{id}/`): the error, in its project if
   * the caller may read that project; Sentry's 404 for anyone else.
   */
  async get(
    caller: Caller,
    issueId: string,
    query: QueryString,
    permalink: (access: ProjectAccess, errorId: string) => string,
  ): Promise<SentryGroup> {
    const access = await this.issueAccess(caller, issueId);
    const period = statsPeriod(query);
    const { error, frequency } = await this.errors.get(access, issueId);
    return toSentryGroup(access.project, error, permalink(access, error.id), {
      period,
      frequency,
    });
  }

  /** A page of an issue's events, newest first (`/issues/{id}/events/`). */
  async events(
    caller: Caller,
    issueId: string,
    query: QueryString,
  ): Promise<{ events: JsonObject[]; nextCursor?: string }> {
    const access = await this.issueAccess(caller, issueId);
    const cursor = single(query, 'cursor');
    const page = await this.errors.events(
      access,
      issueId,
      limit(query),
      cursor || undefined,
    );
    return {
      events: page.items.map((event) =>
        toSentryEventSummary(issueId, access.project.id, event),
      ),
      nextCursor: page.nextCursor,
    };
  }

  /** One whole event of an issue: by id, or `latest` or `oldest`. */
  async event(
    caller: Caller,
    issueId: string,
    eventId: string,
  ): Promise<JsonObject> {
    const access = await this.issueAccess(caller, issueId);
    if (eventId === 'latest' || eventId === 'oldest') {
      const edge = await this.errors.edgeEvent(access, issueId, eventId);
      return toSentryEvent(
        issueId,
        access.project.id,
        edge.eventId,
        edge.event,
      );
    }
    const event = await this.errors.event(access, issueId, eventId);
    return toSentryEvent(issueId, access.project.id, eventId, event);
  }

  /**
   * An issue's tags with their top values (`/issues/{id}/tags/`), from the
   * counts the ingestion flush keeps over its retained events.
   */
  async tags(caller: Caller, issueId: string): Promise<SentryTagKey[]> {
    const access = await this.issueAccess(caller, issueId);
    return toSentryTagKeys(
      await this.tagCounts.distribution(access, issueId, TOP_VALUES),
    );
  }

  /** One tag's values, most frequent first (`/tags/{key}/values/`). */
  async tagValues(
    caller: Caller,
    issueId: string,
    key: string,
  ): Promise<SentryTagValue[]> {
    const access = await this.issueAccess(caller, issueId);
    if (key.length > 200) throw sentryNotFound();
    const values = await this.tagCounts.values(
      access,
      issueId,
      key,
      MAX_TAG_VALUES,
    );
    return values.map((value) => toSentryTagValue(key, value));
  }

  /** The caller's access to an issue's project (a reporter's at least). */
  private async issueAccess(
    caller: Caller,
    issueId: string,
  ): Promise<ProjectAccess> {
    const projectId = /^[1-9]\d{0,18}$/.test(issueId)
      ? await this.errors.projectIdOf(issueId)
      : undefined;
    if (projectId === undefined) throw sentryNotFound();
    return this.access.require(caller, String(projectId), AccessLevel.Reporter);
  }

  /**
   * The bulk `PUT`: the issues named by `id=`, or else those `status=` or
   * `query` (by default `is:unresolved`) take, at most
   * `BULK_MUTATION_LIMIT`, most recently seen first. Returns Sentry's
   * answer, or undefined when no issue matched (Sentry's 204).
   */
  async bulkUpdate(
    caller: Caller,
    project: string,
    query: QueryString,
    body: unknown,
  ): Promise<
    | { status: string; statusDetails: object }
    | { merge: { parent: string; children: string[] } }
    | undefined
  > {
    const access = await this.access.require(
      caller,
      project,
      AccessLevel.Developer,
    );
    const ids = issueIds(query);
    const statusName = single(query, 'status');
    const status =
      statusName === undefined ? undefined : SENTRY_STATUSES[statusName];
    if (!status && statusName !== undefined)
      throw invalid('status: not a valid status filter');
    const filter = issueFilter(single(query, 'query'), status);
    const change = bulkChange(body);
    if (change.kind === 'merge') return this.merge(access, ids);
    const changed = await this.errors.updateStatusOfMany(
      access,
      ids.length > 0 ? { ids } : { filter, limit: BULK_MUTATION_LIMIT },
      change.status,
      change.ignoreUntil,
    );
    if (changed.errors.length === 0) return undefined;
    return {
      status: change.name,
      statusDetails: answeredDetails(change.ignoreUntil, this.clock.now()),
    };
  }

  /**
   * Sentry's merge (`{"merge": 1}` on the issues `id=` names): the one
   * seen most often (then the highest id) is kept, as Sentry keeps it.
   */
  private async merge(
    access: ProjectAccess,
    ids: readonly string[],
  ): Promise<{ merge: { parent: string; children: string[] } }> {
    if (ids.length < 2)
      throw invalid('merge: name at least two issues with id=');
    const found = await Promise.all(
      ids.map((id) => this.errors.find(access, id)),
    );
    const [parent, ...children] = found.sort(
      (a, b) => b.count - a.count || Number(BigInt(b.id) - BigInt(a.id)),
    );
    if (!parent) throw sentryNotFound();
    await this.merges.merge(
      access,
      parent.id,
      children.map((child) => child.id),
    );
    return {
      merge: { parent: parent.id, children: children.map((c) => c.id) },
    };
  }
}
