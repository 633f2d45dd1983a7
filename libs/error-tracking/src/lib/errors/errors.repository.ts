import { Injectable } from '@nestjs/common';

import type { Transaction } from '../persistence/error-tracking.database';
import { ErrorTrackingRepository } from '../persistence/error-tracking-repository';
import type {
  ErrorRecord,
  ErrorSort,
  ErrorStatus,
  EventSummary,
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
}

const COLUMNS = `id, project_id, title, type, message, culprit, status, count, user_count,
  first_seen, last_seen, level, logger, platform, first_release, last_release,
  replace(last_event_id::text, '-', '') AS last_event_id, issue_iid, grouping_version`;

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
  };
}

/** `[[unix seconds, count], ...]` of an error's hours since a time. */
const HOURS_OF = (id: string, from: string) =>
  `(SELECT coalesce(json_agg(json_build_array(extract(epoch FROM h.hour)::bigint, h.count)), '[]'::json)
      FROM error_tracking.error_hourly_counts h
     WHERE h.error_id = ${id} AND h.hour >= ${from})`;

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

export interface ErrorListQuery {
  readonly projectId: number;
  readonly status: ErrorStatus;
  readonly sort: ErrorSort;
  readonly search?: string;
  readonly environment?: string;
  readonly release?: string;
  readonly after?: ErrorPosition;
  readonly limit: number;
}

/** `%`, `_` and `\` are literal in a search. */
function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function toUuid(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
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
   * number of events.
   */
  /**
   * One page with each error's hourly counts since `hoursFrom`, in one
   * query.
   */
  async list(
    query: ErrorListQuery,
    hoursFrom: Date,
  ): Promise<Array<{ error: ErrorRecord; hours: Array<[number, number]> }>> {
    const column = SORT_COLUMN[query.sort];
    const params: unknown[] = [query.projectId, query.status];
    const conditions = ['project_id = $1', 'status = $2'];
    if (query.search) {
      params.push(likePattern(query.search));
      const p = `$${params.length}`;
      conditions.push(
        `(title ILIKE ${p} OR message ILIKE ${p} OR culprit ILIKE ${p})`,
      );
    }
    for (const [kind, value] of [
      ['environment', query.environment],
      ['release', query.release],
    ] as const) {
      if (value === undefined) continue;
      params.push(value);
      conditions.push(
        `EXISTS (SELECT 1 FROM error_tracking.error_facets f
                  WHERE f.error_id = e.id AND f.kind = '${kind}' AND f.value = $${params.length})`,
      );
    }
    if (query.after) {
      params.push(query.after.value, query.after.id);
      const cast = query.sort === 'frequency' ? 'bigint' : 'timestamptz';
      conditions.push(
        `(${column}, id) < ($${params.length - 1}::${cast}, $${params.length}::bigint)`,
      );
    }
    params.push(query.limit, hoursFrom);
    const rows = await this.replica.rows<
      ErrorRow & { hours: Array<[number, number]> }
    >(
      `SELECT page.*, ${HOURS_OF('page.id', `$${params.length}`)} AS hours
         FROM (SELECT ${COLUMNS} FROM error_tracking.errors e
                WHERE ${conditions.join(' AND ')}
                ORDER BY ${column} DESC, id DESC LIMIT $${params.length - 1}) page
        ORDER BY page.${column} DESC, page.id DESC`,
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

  /** One stored event of an error (found through `event_ids`, so one partition is read). */
  async findEvent(
    projectId: number,
    errorId: string,
    eventId: string,
  ): Promise<StoredEvent | undefined> {
    const rows = await this.replica.rows<{
      payload: string;
      received_at: Date;
    }>(
      `SELECT ev.payload::text AS payload, ev.received_at
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
        }
      : undefined;
  }

  /** Occurrences newest first, after a (timestamp, event id) position. */
  async listEvents(
    errorId: string,
    limit: number,
    after?: { timestamp: Date; eventId: string },
  ): Promise<EventSummary[]> {
    const params: unknown[] = [errorId, limit];
    let position = '';
    if (after) {
      params.push(after.timestamp, toUuid(after.eventId));
      position = 'AND (timestamp, event_id) < ($3, $4::uuid)';
    }
    const rows = await this.replica.rows<{
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
    }>(
      `SELECT replace(event_id::text, '-', '') AS event_id, timestamp, received_at, level,
              release, environment,
              payload->>'title' AS title, payload->>'message' AS message,
              payload->'exception'->'values'->-1->>'value' AS exception_value,
              payload->>'platform' AS platform, payload->'user' AS user,
              payload->'tags' AS tags, payload->'sdk' AS sdk
         FROM error_tracking.events
        WHERE error_id = $1 ${position}
        ORDER BY timestamp DESC, event_id DESC LIMIT $2`,
      params,
    );
    return rows.map((row) => ({
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
    }));
  }

  async setStatus(
    projectId: number,
    errorId: string,
    status: ErrorStatus,
    now: Date,
    tx: Transaction = this.sql,
  ): Promise<ErrorRecord | undefined> {
    const rows = await tx.rows<ErrorRow>(
      `UPDATE error_tracking.errors SET status = $3, updated_at = $4
        WHERE project_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [projectId, errorId, status, now],
    );
    return rows[0] ? toError(rows[0]) : undefined;
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
}
