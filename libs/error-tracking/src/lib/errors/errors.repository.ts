import { Injectable } from '@nestjs/common';

import { EVENT_MAX_FUTURE_MS } from '../common/error-tracking.constants';
import type { Transaction } from '../persistence/error-tracking.database';
import { ErrorTrackingRepository } from '../persistence/error-tracking-repository';
import { eventCountSql } from './environment-count.sql';
import { errorSearchConditions } from './error-search.sql';
import { eventSearchConditions } from './event-search.sql';
import { bind, containsPattern } from './search-sql';
import type { SearchTerm } from './sentry-search';
import type {
  ErrorRecord,
  ErrorSort,
  ErrorStatus,
  EventNeighbours,
  EventPosition,
  EventSummary,
  IgnoreUntil,
  StoredEvent,
} from './error.types';

interface ErrorRow {
  id: string;
  project_id: number;
  title: string;
  type: string;
  message: string;
  culprit: string;
  status: ErrorStatus;
  count: string;
  user_count: number;
  first_seen: Date;
  last_seen: Date;
  level: string;
  logger: string | null;
  platform: string | null;
  first_release: string | null;
  last_release: string | null;
  last_event_id: string;
  issue_iid: number | null;
  grouping_version: number;
  ignored_until: Date | null;
  ignored_until_count: string | null;
  ignored_until_user_count: number | null;
}

/** An error row's columns, its `count` read by `count` (an SQL expression). */
const COLUMNS_COUNTED = (
  count: string,
) => `id, project_id, title, type, message, culprit, status,
  ${count} AS count, user_count,
  first_seen, last_seen, level, logger, platform, first_release, last_release,
  replace(last_event_id::text, '-', '') AS last_event_id, issue_iid, grouping_version,
  ignored_until, ignored_until_count, ignored_until_user_count`;
const COLUMNS = COLUMNS_COUNTED('count');

function toError(row: ErrorRow): ErrorRecord {
  return {
    id: String(row.id),
    projectId: row.project_id,
    title: row.title,
    type: row.type,
    message: row.message,
    culprit: row.culprit,
    status: row.status,
    count: Number(row.count),
    userCount: row.user_count,
    firstSeen: row.first_seen,
    lastSeen: row.last_seen,
    level: row.level,
    logger: row.logger,
    platform: row.platform,
    firstRelease: row.first_release,
    lastRelease: row.last_release,
    lastEventId: row.last_event_id,
    issueIid: row.issue_iid,
    groupingVersion: row.grouping_version,
    ignoredUntil: row.ignored_until,
    ignoredUntilCount:
      row.ignored_until_count === null ? null : Number(row.ignored_until_count),
    ignoredUntilUserCount: row.ignored_until_user_count,
  };
}

/**
 * `[[unix seconds, count], ...]` of an error's hours since a time: of
 * every environment, or of the one `environment` (a placeholder) names.
 */
const HOURS_OF = (id: string, from: string, environment?: string) =>
  `(SELECT coalesce(json_agg(json_build_array(extract(epoch FROM hh.hour)::bigint, hh.count)), '[]'::json)
      FROM (SELECT h.hour, sum(h.count)::int AS count
              FROM error_tracking.error_hourly_counts h
             WHERE h.error_id = ${id} AND h.hour >= ${from}
                   ${environment === undefined ? '' : `AND h.environment = ${environment}`}
             GROUP BY h.hour) hh)`;

const SORT_COLUMN: Record<ErrorSort, string> = {
  last_seen: 'last_seen',
  first_seen: 'first_seen',
  frequency: 'count',
};

/** Keyset position: the sort value and id of a page's last error. */
export interface ErrorPosition {
  readonly value: string;
  readonly id: string;
}

/** Which of a project's errors a list or a bulk update takes. */
export type ErrorFilter = Pick<
  ErrorListQuery,
  'projectId' | 'status' | 'search' | 'environment' | 'release' | 'terms'
>;

export interface ErrorListQuery {
  readonly projectId: number;
  /** Absent: every status (Sentry's empty query). */
  readonly status?: ErrorStatus;
  readonly sort: ErrorSort;
  readonly search?: string;
  readonly environment?: string;
  readonly release?: string;
  /** A parsed search (`?query=`), every term of which must hold. */
  readonly terms?: readonly SearchTerm[];
  readonly after?: ErrorPosition;
  readonly limit: number;
}

/** The WHERE terms (and their parameters) of a list's filters. */
function filterConditions(query: ErrorFilter): {
  params: unknown[];
  conditions: string[];
} {
  const params: unknown[] = [query.projectId];
  const conditions = ['project_id = $1'];
  if (query.status !== undefined) {
    params.push(query.status);
    conditions.push(`status = $${params.length}`);
  }
  if (query.search) {
    params.push(containsPattern(query.search));
    const p = `$${params.length}`;
    conditions.push(
      `(title ILIKE ${p} OR message ILIKE ${p} OR culprit ILIKE ${p})`,
    );
  }
  // An environment takes the errors with kept events in it, as its counts
  // (`eventCountSql`) are read from the same tag counts.
  if (query.environment !== undefined) {
    params.push(query.environment);
    conditions.push(
      `EXISTS (SELECT 1 FROM error_tracking.error_tags t
                  WHERE t.error_id = e.id AND t.key = 'environment' AND t.value = $${params.length})`,
    );
  }
  if (query.release !== undefined) {
    params.push(query.release);
    conditions.push(
      `EXISTS (SELECT 1 FROM error_tracking.error_facets f
                  WHERE f.error_id = e.id AND f.kind = 'release' AND f.value = $${params.length})`,
    );
  }
  conditions.push(...errorSearchConditions(query.terms ?? [], params));
  return { params, conditions };
}

export function toUuid(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

interface EventSummaryRow {
  event_id: string;
  timestamp: Date;
  received_at: Date;
  level: string;
  release: string | null;
  environment: string;
  title: string | null;
  message: string | null;
  exception_value: string | null;
  platform: string | null;
  user: unknown;
  tags: unknown;
  sdk: unknown;
}

/** An events-list row, read from a row of `error_tracking.events`. */
const SUMMARY_COLUMNS = `replace(event_id::text, '-', '') AS event_id, timestamp, received_at,
  level, release, environment,
  payload->>'title' AS title, payload->>'message' AS message,
  payload->'exception'->'values'->-1->>'value' AS exception_value,
  payload->>'platform' AS platform, payload->'user' AS user,
  coalesce(tags, payload->'tags') AS tags, payload->'sdk' AS sdk`;

function toEventSummary(row: EventSummaryRow): EventSummary {
  return {
    eventId: row.event_id,
    timestamp: row.timestamp,
    receivedAt: row.received_at,
    level: row.level,
    title: row.title ?? '',
    message: row.message ?? row.exception_value ?? '',
    release: row.release,
    environment: row.environment,
    platform: row.platform,
    user: row.user ?? null,
    tags: row.tags ?? {},
    sdk: row.sdk ?? null,
  };
}

/** The keyset condition after `after` (its parameters appended), or none. */
function afterPosition(params: unknown[], after?: EventPosition): string {
  if (!after) return '';
  params.push(after.timestamp, toUuid(after.eventId));
  return `AND (timestamp, event_id) < ($${params.length - 1}, $${params.length}::uuid)`;
}

/**
 * Reads of errors and their stored events; status and issue links. The
 * list, the detail and its events read from `replica` (they tolerate its
 * lag); a read before a write (`find`) stays on the primary.
 */
@Injectable()
export class ErrorsRepository extends ErrorTrackingRepository {
  /**
   * One page, newest/largest first; every sort has an index on
   * (project, status, sort column, id), so the cost does not grow with the
   * number of events. Without a status (Sentry's empty query) a page sorts
   * all of the project's errors.
   */
  /**
   * One page with each error's hourly counts since `hoursFrom`, in one
   * query.
   */
  async list(
    query: ErrorListQuery,
    hoursFrom: Date,
  ): Promise<Array<{ error: ErrorRecord; hours: Array<[number, number]> }>> {
    const { params, conditions } = filterConditions(query);
    // With an environment, `count` (and the frequency sort) is its events'.
    const count = eventCountSql(params, query.environment);
    const sortBy =
      query.sort === 'frequency' ? count : `e.${SORT_COLUMN[query.sort]}`;
    if (query.after) {
      params.push(query.after.value, query.after.id);
      const cast = query.sort === 'frequency' ? 'bigint' : 'timestamptz';
      conditions.push(
        `(${sortBy}, e.id) < ($${params.length - 1}::${cast}, $${params.length}::bigint)`,
      );
    }
    const limit = bind(params, query.limit);
    const hours = HOURS_OF(
      'page.id',
      bind(params, hoursFrom),
      query.environment === undefined
        ? undefined
        : bind(params, query.environment),
    );
    const rows = await this.replica.rows<
      ErrorRow & { hours: Array<[number, number]>; sort_value: unknown }
    >(
      `SELECT page.*, ${hours} AS hours
         FROM (SELECT ${COLUMNS_COUNTED(count)}, ${sortBy} AS sort_value
                 FROM error_tracking.errors e
                WHERE ${conditions.join(' AND ')}
                ORDER BY ${sortBy} DESC, e.id DESC LIMIT ${limit}) page
        ORDER BY page.sort_value DESC, page.id DESC`,
      params,
    );
    return rows.map((row) => ({ error: toError(row), hours: row.hours }));
  }

  /** One error with its hourly counts since `hoursFrom`. */
  async findWithHours(
    projectId: number,
    errorId: string,
    hoursFrom: Date,
  ): Promise<
    { error: ErrorRecord; hours: Array<[number, number]> } | undefined
  > {
    const rows = await this.replica.rows<
      ErrorRow & { hours: Array<[number, number]> }
    >(
      `SELECT ${COLUMNS}, ${HOURS_OF('e.id', '$3')} AS hours
         FROM error_tracking.errors e WHERE project_id = $1 AND id = $2`,
      [projectId, errorId, hoursFrom],
    );
    const row = rows[0];
    return row ? { error: toError(row), hours: row.hours } : undefined;
  }

  /** The project of an error (Sentry's issue paths name no project). */
  async projectIdOf(errorId: string): Promise<number | undefined> {
    const rows = await this.replica.rows<{ project_id: number }>(
      'SELECT project_id FROM error_tracking.errors WHERE id = $1',
      [errorId],
    );
    return rows[0]?.project_id;
  }

  /** Whether the project has received an error, in any status. */
  async hasAny(projectId: number): Promise<boolean> {
    const [row] = await this.replica.rows<{ any: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM error_tracking.errors WHERE project_id = $1) AS any`,
      [projectId],
    );
    return row?.any ?? false;
  }

  /** Environments the project's errors were seen in (the list's filter). */
  async environments(projectId: number, limit: number): Promise<string[]> {
    const rows = await this.replica.rows<{ value: string }>(
      `SELECT DISTINCT f.value FROM error_tracking.error_facets f
         JOIN error_tracking.errors e ON e.id = f.error_id
        WHERE e.project_id = $1 AND f.kind = 'environment' AND f.value <> ''
        ORDER BY f.value LIMIT $2`,
      [projectId, limit],
    );
    return rows.map((row) => row.value);
  }

  async find(
    projectId: number,
    errorId: string,
    options: { forUpdate?: boolean } = {},
    tx: Transaction = this.sql,
  ): Promise<ErrorRecord | undefined> {
    const rows = await tx.rows<ErrorRow>(
      `SELECT ${COLUMNS} FROM error_tracking.errors
        WHERE project_id = $1 AND id = $2 ${options.forUpdate ? 'FOR UPDATE' : ''}`,
      [projectId, errorId],
    );
    return rows[0] ? toError(rows[0]) : undefined;
  }

  /** The id of an error's first or last event by its time, if any is kept. */
  async edgeEventId(
    errorId: string,
    edge: 'oldest' | 'latest',
  ): Promise<string | undefined> {
    const order = edge === 'oldest' ? 'ASC' : 'DESC';
    const rows = await this.replica.rows<{ event_id: string }>(
      `SELECT replace(event_id::text, '-', '') AS event_id
         FROM error_tracking.events WHERE error_id = $1
        ORDER BY timestamp ${order}, event_id ${order} LIMIT 1`,
      [errorId],
    );
    return rows[0]?.event_id;
  }

  /** One stored event of an error (found through `event_ids`, so one partition is read). */
  async findEvent(
    projectId: number,
    errorId: string,
    eventId: string,
  ): Promise<StoredEvent | undefined> {
    const rows = await this.replica.rows<{
      payload: string;
      received_at: Date;
      timestamp: Date;
    }>(
      `SELECT ev.payload::text AS payload, ev.received_at, ev.timestamp
         FROM error_tracking.event_ids i
         JOIN error_tracking.events ev
           ON ev.received_at = i.received_at AND ev.timestamp = i.timestamp
          AND ev.event_id = i.event_id AND ev.error_id = $2
        WHERE i.project_id = $1 AND i.event_id = $3`,
      [projectId, errorId, toUuid(eventId)],
    );
    const row = rows[0];
    return row
      ? {
          payload: JSON.parse(row.payload) as Record<string, unknown>,
          payloadJson: row.payload,
          receivedAt: row.received_at,
          timestamp: row.timestamp,
        }
      : undefined;
  }

  /** Occurrences newest first, after a (timestamp, event id) position. */
  async listEvents(
    errorId: string,
    limit: number,
    after?: EventPosition,
  ): Promise<EventSummary[]> {
    const params: unknown[] = [errorId, limit];
    const rows = await this.replica.rows<EventSummaryRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM error_tracking.events
        WHERE error_id = $1 ${afterPosition(params, after)}
        ORDER BY timestamp DESC, event_id DESC LIMIT $2`,
      params,
    );
    return rows.map(toEventSummary);
  }

  /**
   * Occurrences newest first that match a search, among at most `scanMax`
   * events after a position (the primary key's order, so one index range
   * per partition is read). `scanEdge` is the oldest event read when the
   * read stopped at `scanMax`: a list goes on from there.
   */
  async searchEvents(
    errorId: string,
    query: {
      terms: readonly SearchTerm[];
      limit: number;
      scanMax: number;
      after?: EventPosition;
    },
  ): Promise<{ hits: EventSummary[]; scanEdge?: EventPosition }> {
    const params: unknown[] = [errorId, query.scanMax, query.limit];
    const position = afterPosition(params, query.after);
    const matches = eventSearchConditions(query.terms, params).join(' AND ');
    const rows = await this.replica.rows<
      Partial<EventSummaryRow> & {
        scanned: string;
        edge_timestamp: Date | null;
        edge_event_id: string | null;
      }
    >(
      `WITH scanned AS (
         SELECT * FROM error_tracking.events WHERE error_id = $1 ${position}
          ORDER BY timestamp DESC, event_id DESC LIMIT $2),
       edge AS (
         SELECT count(*) AS scanned,
                (array_agg(timestamp ORDER BY timestamp, event_id))[1] AS edge_timestamp,
                replace((array_agg(event_id ORDER BY timestamp, event_id))[1]::text, '-', '') AS edge_event_id
           FROM scanned),
       hits AS (
         SELECT ${SUMMARY_COLUMNS} FROM scanned ev WHERE ${matches}
          ORDER BY timestamp DESC, event_id DESC LIMIT $3)
       SELECT hits.*, edge.* FROM edge LEFT JOIN hits ON true
        ORDER BY hits.timestamp DESC, hits.event_id DESC`,
      params,
    );
    const edge = rows[0];
    const hits = rows
      .filter((row): row is EventSummaryRow & typeof row => !!row.event_id)
      .map(toEventSummary);
    return {
      hits,
      scanEdge:
        edge &&
        Number(edge.scanned) === query.scanMax &&
        edge.edge_timestamp &&
        edge.edge_event_id
          ? { timestamp: edge.edge_timestamp, eventId: edge.edge_event_id }
          : undefined,
    };
  }

  /**
   * The oldest, next older, next newer and latest events of an error
   * around one of its events: four index lookups of one row each.
   */
  async eventNeighbours(
    errorId: string,
    at: EventPosition,
  ): Promise<EventNeighbours> {
    const one = (where: string, order: 'ASC' | 'DESC') =>
      `(SELECT replace(event_id::text, '-', '') FROM error_tracking.events
         WHERE error_id = $1 ${where}
         ORDER BY timestamp ${order}, event_id ${order} LIMIT 1)`;
    // A newer event arrived at most EVENT_MAX_FUTURE_MS before this one's
    // time: the day partitions before that are not read.
    const newer = `AND (timestamp, event_id) > ($2, $3::uuid) AND received_at >= $4`;
    const [row] = await this.replica.rows<{
      oldest: string | null;
      older: string | null;
      newer: string | null;
      latest: string | null;
    }>(
      `SELECT ${one('', 'ASC')} AS oldest,
              ${one('AND (timestamp, event_id) < ($2, $3::uuid)', 'DESC')} AS older,
              ${one(newer, 'ASC')} AS newer,
              ${one('', 'DESC')} AS latest`,
      [
        errorId,
        at.timestamp,
        toUuid(at.eventId),
        new Date(at.timestamp.getTime() - EVENT_MAX_FUTURE_MS),
      ],
    );
    return {
      oldest: row?.oldest ?? null,
      older: row?.older ?? null,
      newer: row?.newer ?? null,
      latest: row?.latest ?? null,
    };
  }

  async setStatus(
    projectId: number,
    errorId: string,
    status: ErrorStatus,
    now: Date,
    tx: Transaction = this.sql,
    ignoreUntil: IgnoreUntil = {},
  ): Promise<ErrorRecord | undefined> {
    const [error] = await this.setStatusOfMany(
      projectId,
      [errorId],
      status,
      now,
      tx,
      ignoreUntil,
    );
    return error;
  }

  async linkIssue(
    errorId: string,
    iid: number,
    tx: Transaction = this.sql,
  ): Promise<void> {
    await tx.rows(
      'UPDATE error_tracking.errors SET issue_iid = $2 WHERE id = $1',
      [errorId, iid],
    );
  }

  /**
   * Ids of the errors a filter takes, most recently seen first (the ones a
   * bulk update changes), read on the primary: an update follows.
   */
  async idsMatching(
    filter: ErrorFilter,
    limit: number,
    tx: Transaction = this.sql,
  ): Promise<string[]> {
    const { params, conditions } = filterConditions(filter);
    params.push(limit);
    const rows = await tx.rows<{ id: string }>(
      `SELECT id FROM error_tracking.errors e WHERE ${conditions.join(' AND ')}
        ORDER BY last_seen DESC, id DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map((row) => String(row.id));
  }

  /**
   * Sets the status of those of `errorIds` in the project; returns them.
   * Ignoring with a condition stores its end as totals to reach (the
   * current count plus N, as Sentry's snooze counts from its start); any
   * other change drops a condition.
   */
  async setStatusOfMany(
    projectId: number,
    errorIds: readonly string[],
    status: ErrorStatus,
    now: Date,
    tx: Transaction = this.sql,
    ignoreUntil: IgnoreUntil = {},
  ): Promise<ErrorRecord[]> {
    const ignoring = status === 'ignored';
    const rows = await tx.rows<ErrorRow>(
      `UPDATE error_tracking.errors SET status = $3, updated_at = $4,
              ignored_until = $4::timestamptz + make_interval(mins => $5::int),
              ignored_until_count = count + $6::bigint,
              ignored_until_user_count = user_count + $7::int
        WHERE project_id = $1 AND id = ANY($2::bigint[]) RETURNING ${COLUMNS}`,
      [
        projectId,
        errorIds,
        status,
        now,
        ignoring ? (ignoreUntil.minutes ?? null) : null,
        ignoring ? (ignoreUntil.events ?? null) : null,
        ignoring ? (ignoreUntil.users ?? null) : null,
      ],
    );
    return rows.map(toError);
  }

  /**
   * Reopens the project's errors ignored until a time that has passed (the
   * duration condition, applied when the errors are read; the flush applies
   * it too when an event comes first). Served by a partial index, so a
   * project with none costs one index probe.
   */
  async reopenExpiredIgnores(projectId: number, now: Date): Promise<void> {
    await this.sql.rows(
      `UPDATE error_tracking.errors
          SET status = 'unresolved', updated_at = $2, ignored_until = NULL,
              ignored_until_count = NULL, ignored_until_user_count = NULL
        WHERE project_id = $1 AND ignored_until <= $2 AND status = 'ignored'`,
      [projectId, now],
    );
  }

  /** How many of a project's errors a filter takes, counting at most `limit`. */
  async countMatching(filter: ErrorFilter, limit: number): Promise<number> {
    const { params, conditions } = filterConditions(filter);
    params.push(limit);
    const [row] = await this.sql.rows<{ n: number }>(
      `SELECT count(*)::int AS n FROM (
         SELECT 1 FROM error_tracking.errors e WHERE ${conditions.join(' AND ')}
          LIMIT $${params.length}) hits`,
      params,
    );
    return row?.n ?? 0;
  }
}
