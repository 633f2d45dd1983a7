import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Sql, isUniqueViolation } from '@quitanda/database';
import { DataSource } from 'typeorm';

import {
  MARKETPLACE_DATA_SOURCE,
  REGEX_STATEMENT_TIMEOUT_MS,
} from '../marketplace.constants';
import { MarketplaceError, MarketplaceErrorCode } from '../marketplace.errors';
import type { KinveyDoc } from '../kinvey/kinvey-doc';

export interface RecordKey {
  readonly appKey: string;
  readonly collection: string;
  readonly id: string;
}

export interface NewRecord extends RecordKey {
  readonly doc: KinveyDoc;
  readonly creator: string;
  readonly uniqueName: string | null;
  readonly now: Date;
}

const QUERY_CANCELED = '57014';
/** What the query compiler calls to open paths and arrays (see `select`). */
const SET_FUNCTIONS =
  /\bjsonb_(?:path_query|array_elements|each|object_keys)\b/;
const INVALID_REGULAR_EXPRESSION = '2201B';

function duplicate(error: unknown, id: string): never {
  if (isUniqueViolation(error, 'records_unique_name_key'))
    throw new MarketplaceError(
      MarketplaceErrorCode.DuplicateEntity,
      'A product with this name already exists.',
      'name',
    );
  if (isUniqueViolation(error))
    throw new MarketplaceError(
      MarketplaceErrorCode.DuplicateEntity,
      'An entity with this _id already exists.',
      id,
    );
  throw error;
}

/** Records of the four collections, and tombstones of deleted ones. */
@Injectable()
export class RecordsRepository {
  readonly sql: Sql;
  /** Listings and reads that tolerate replica lag (`DATABASE_READ_URL`). */
  readonly replica: Sql;

  constructor(
    @InjectDataSource(MARKETPLACE_DATA_SOURCE) dataSource: DataSource,
  ) {
    this.sql = new Sql(dataSource);
    this.replica = Sql.replica(dataSource);
  }

  /**
   * Stores a new record, unless `producer` (its `id_producer`) names no
   * user of the app: then nothing is written and the answer is false. One
   * statement, so a create costs one round trip.
   */
  async insert(record: NewRecord, producer?: string): Promise<boolean> {
    try {
      // Prepared: the statement of every create, parsed once per connection.
      const rows = await this.sql.prepared(
        'mkt_insert_record',
        `WITH admitted AS (
           SELECT WHERE $8::text IS NULL
              OR EXISTS (SELECT 1 FROM marketplace.users WHERE app_key = $1 AND id = $8)),
         gone AS (
           DELETE FROM marketplace.record_tombstones
            WHERE app_key = $1 AND collection = $2 AND id = $3 AND EXISTS (SELECT FROM admitted))
         INSERT INTO marketplace.records (app_key, collection, id, doc, creator, unique_name, created_at, updated_at)
         SELECT $1, $2, $3, $4::jsonb, $5, $6, $7::timestamptz, $7::timestamptz
          WHERE EXISTS (SELECT FROM admitted)
         RETURNING 1`,
        [
          record.appKey,
          record.collection,
          record.id,
          record.doc,
          record.creator,
          record.uniqueName,
          record.now,
          producer ?? null,
        ],
      );
      return rows.length > 0;
    } catch (error) {
      duplicate(error, record.id);
    }
  }

  /**
   * Several inserts, each on its own (a failure leaves the others): for
   * each, whether it was stored or the error that stopped it.
   */
  async insertEach(
    records: ReadonlyArray<{ record: NewRecord; producer?: string }>,
  ): Promise<Array<boolean | { error: unknown }>> {
    return Promise.all(
      records.map(({ record, producer }) =>
        this.insert(record, producer).catch((error: unknown) => ({ error })),
      ),
    );
  }

  async replace(record: NewRecord): Promise<void> {
    try {
      await this.sql.rows(
        `UPDATE marketplace.records SET doc = $4, unique_name = $5, updated_at = $6
          WHERE app_key = $1 AND collection = $2 AND id = $3`,
        [
          record.appKey,
          record.collection,
          record.id,
          record.doc,
          record.uniqueName,
          record.now,
        ],
      );
    } catch (error) {
      duplicate(error, record.id);
    }
  }

  /** Which of `ids` exist in the collection (an import skips those). */
  async existingIds(
    appKey: string,
    collection: string,
    ids: readonly string[],
  ): Promise<Set<string>> {
    const rows = await this.sql.rows<{ id: string }>(
      'SELECT id FROM marketplace.records WHERE app_key = $1 AND collection = $2 AND id = ANY($3::text[])',
      [appKey, collection, ids],
    );
    return new Set(rows.map((row) => row.id));
  }

  /** `replica` only for a plain read; a read before a write stays on the primary. */
  async find(
    key: RecordKey,
    from: 'primary' | 'replica' = 'primary',
  ): Promise<KinveyDoc | undefined> {
    const sql = from === 'replica' ? this.replica : this.sql;
    const rows = await sql.rows<{ doc: KinveyDoc }>(
      'SELECT doc FROM marketplace.records WHERE app_key = $1 AND collection = $2 AND id = $3',
      [key.appKey, key.collection, key.id],
    );
    return rows[0]?.doc;
  }

  /**
   * Runs a SELECT built by the data layer (listings, counts, groups: on the
   * replica when there is one). One that calls jsonb set functions runs
   * with JIT off: PostgreSQL estimates them at hundreds of rows, so such
   * queries over a few thousand records would be JIT-compiled (about a
   * second each); without JIT they take milliseconds. Transaction-local, as
   * PgBouncer's transaction pooling carries no session setting; the plain
   * and indexed ones (a listing, the text-field conditions) skip that
   * transaction's two extra round trips. With regular expressions, it also
   * runs under a statement timeout; a timeout is the client's 400.
   */
  async select<T extends Record<string, unknown>>(
    text: string,
    values: readonly unknown[],
    usesRegex: boolean,
  ): Promise<T[]> {
    if (!usesRegex && !SET_FUNCTIONS.test(text))
      return this.replica.rows<T>(text, values);
    try {
      return await this.replica.transaction(
        (tx) => tx.rows<T>(text, values),
        usesRegex
          ? { jit: 'off', statement_timeout: REGEX_STATEMENT_TIMEOUT_MS }
          : { jit: 'off' },
      );
    } catch (error) {
      if (!usesRegex) throw error;
      const code = (error as { code?: string }).code;
      if (code === QUERY_CANCELED)
        throw new MarketplaceError(
          MarketplaceErrorCode.BadRequest,
          'The query took too long (regular expression).',
          `statement timeout ${REGEX_STATEMENT_TIMEOUT_MS} ms`,
        );
      // The compiler refuses what PostgreSQL would reject; this is the net
      // for a pattern it missed, so the client sees its own mistake.
      if (code === INVALID_REGULAR_EXPRESSION)
        throw new MarketplaceError(
          MarketplaceErrorCode.InvalidQuerySyntax,
          'Invalid regular expression in the query.',
          (error as Error).message,
        );
      throw error;
    }
  }

  /** Deletes the records matching `where` and leaves tombstones; returns the count. */
  async deleteWhere(
    appKey: string,
    collection: string,
    where: string,
    values: readonly unknown[],
    now: Date,
  ): Promise<number> {
    const n = values.length;
    const rows = await this.sql.rows<{ n: number }>(
      `WITH gone AS (
         DELETE FROM marketplace.records r WHERE r.app_key = $${n + 1} AND r.collection = $${n + 2} AND (${where})
         RETURNING r.id),
       stones AS (
         INSERT INTO marketplace.record_tombstones (app_key, collection, id, deleted_at)
         SELECT $${n + 1}, $${n + 2}, id, $${n + 3} FROM gone
         ON CONFLICT (app_key, collection, id) DO UPDATE SET deleted_at = EXCLUDED.deleted_at)
       SELECT count(*)::int AS n FROM gone`,
      [...values, appKey, collection, now],
    );
    return rows[0]?.n ?? 0;
  }

  async tombstonesSince(
    appKey: string,
    collection: string,
    since: Date,
  ): Promise<string[]> {
    const rows = await this.sql.rows<{ id: string }>(
      `SELECT id FROM marketplace.record_tombstones
        WHERE app_key = $1 AND collection = $2 AND deleted_at >= $3 ORDER BY deleted_at, id`,
      [appKey, collection, since],
    );
    return rows.map((row) => row.id);
  }

  async userExists(appKey: string, id: string): Promise<boolean> {
    const rows = await this.sql.prepared(
      'mkt_user_exists',
      'SELECT 1 FROM marketplace.users WHERE app_key = $1 AND id = $2',
      [appKey, id],
    );
    return rows.length > 0;
  }
}
