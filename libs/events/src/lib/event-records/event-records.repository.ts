import { Injectable } from '@nestjs/common';

import { EventsRepository } from '../persistence/events-repository';
import type {
  EventRecord,
  EventRecordChanges,
  ExpectedVersions,
} from './event-record';
import type { ListPosition } from './list-cursor';

interface EventRow {
  id: string;
  title: string;
  description: string;
  version: number;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, title, description, version, created_at, updated_at';

function toRecord(row: EventRow): EventRecord {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** `%`, `_` and `\` are literal characters in a search, not LIKE wildcards. */
function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function versionsParam(expected: ExpectedVersions): number[] | null {
  return expected === undefined || expected === 'any' ? null : [...expected];
}

export type WriteOutcome<T> =
  | { readonly status: 'ok'; readonly value: T }
  | { readonly status: 'not_found' }
  | { readonly status: 'precondition_failed' };

/**
 * Hand-written, parameterised SQL over `events.events`: these are the
 * hottest paths of the context and TypeORM's query builder would double their
 * cost. The entity still defines the schema and its migrations. Only the
 * list reads from `replica` (it tolerates replica lag).
 */
@Injectable()
export class EventRecordsRepository extends EventsRepository {
  async insert(record: EventRecord): Promise<EventRecord> {
    // Prepared, as the lookup below: the context's hottest statements.
    const rows: EventRow[] = await this.sql.prepared(
      'events_insert',
      `INSERT INTO events.events (id, title, description, version, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      [
        record.id,
        record.title,
        record.description,
        record.version,
        record.createdAt,
        record.updatedAt,
      ],
    );
    return toRecord(rows[0] as EventRow);
  }

  async findById(id: string): Promise<EventRecord | undefined> {
    const rows: EventRow[] = await this.sql.prepared(
      'events_by_id',
      `SELECT ${COLUMNS} FROM events.events WHERE id = $1`,
      [id],
    );
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  async exists(id: string): Promise<boolean> {
    const rows: unknown[] = await this.sql.rows(
      'SELECT 1 FROM events.events WHERE id = $1',
      [id],
    );
    return rows.length > 0;
  }

  /** Newest first; `after` continues from the last record of a previous page. */
  async list(options: {
    limit: number;
    after?: ListPosition;
    search?: string;
  }): Promise<EventRecord[]> {
    const conditions: string[] = [];
    const params: unknown[] = [];
    if (options.after) {
      params.push(options.after.createdAt, options.after.id);
      conditions.push(
        `(created_at, id) < ($${params.length - 1}, $${params.length})`,
      );
    }
    if (options.search) {
      params.push(likePattern(options.search));
      conditions.push(
        `(title ILIKE $${params.length} OR description ILIKE $${params.length})`,
      );
    }
    params.push(options.limit);
    const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
    const rows: EventRow[] = await this.replica.rows(
      `SELECT ${COLUMNS} FROM events.events ${where}
       ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map(toRecord);
  }

  /** Applies changes if the record's version is one of `expected`. */
  async update(
    id: string,
    changes: EventRecordChanges,
    expected: ExpectedVersions,
    now: Date,
  ): Promise<WriteOutcome<EventRecord>> {
    const rows: EventRow[] = await this.sql.rows(
      `UPDATE events.events
          SET title = COALESCE($2, title),
              description = COALESCE($3, description),
              version = version + 1,
              updated_at = $4
        WHERE id = $1 AND ($5::int[] IS NULL OR version = ANY($5::int[]))
        RETURNING ${COLUMNS}`,
      [
        id,
        changes.title ?? null,
        changes.description ?? null,
        now,
        versionsParam(expected),
      ],
    );
    if (rows[0]) return { status: 'ok', value: toRecord(rows[0]) };
    return this.missOutcome(id);
  }

  async delete(
    id: string,
    expected: ExpectedVersions,
  ): Promise<WriteOutcome<void>> {
    const rows: unknown[] = await this.sql.rows(
      `DELETE FROM events.events
        WHERE id = $1 AND ($2::int[] IS NULL OR version = ANY($2::int[]))
        RETURNING id`,
      [id, versionsParam(expected)],
    );
    if (rows.length > 0) return { status: 'ok', value: undefined };
    return this.missOutcome(id);
  }

  /** Why a conditional write touched nothing: gone, or changed meanwhile. */
  private async missOutcome(
    id: string,
  ): Promise<{ status: 'not_found' } | { status: 'precondition_failed' }> {
    return (await this.exists(id))
      ? { status: 'precondition_failed' }
      : { status: 'not_found' };
  }
}
