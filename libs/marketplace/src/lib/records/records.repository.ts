import { Injectable } from '@nestjs/common';
import { isUniqueViolation, WriteBatches } from '@quitanda/database';

import type { KinveyDoc } from '../kinvey/kinvey-doc';
import { MarketplaceError } from '../common/marketplace.errors';
import type { MarketplaceTx } from '../persistence/marketplace-database';
import { MarketplaceRepository } from '../persistence/marketplace-repository';
import { compileGroup } from '../query/compile-group';
import { findWhere } from '../query/find-query';
import type { FindSpec } from '../query/find-query';
import { readableSql, scopeAclSql, scopeSql } from '../query/acl-conditions';
import type { ReadScope, Reader } from '../query/acl-conditions';
import { SqlParams } from '../query/sql-params';
import type {
  CompiledCollection,
  UniqueKeys,
} from '../collections/compiled-collection';

/** What a find needs of a collection: its name and its text fields. */
export type CollectionScope = Pick<CompiledCollection, 'name' | 'textFields'>;

export interface RecordKey {
  readonly appKey: string;
  readonly collection: string;
  readonly id: string;
}

export interface NewRecord extends RecordKey, UniqueKeys {
  readonly doc: KinveyDoc;
  readonly creator: string;
  readonly now: Date;
}

/** What a Kinvey find over a collection asks, beyond its app and collection. */
export interface RecordCriteria {
  readonly filter?: unknown;
  readonly sort?: unknown;
  readonly limit?: number;
  readonly skip?: number;
  /** Only the records this reader may read; all when undefined. */
  readonly readableBy?: Reader;
  /** Only the records updated at or after this time. */
  readonly updatedSince?: Date;
  /** Kinvey's "Private" level: `_acl.gr` grants nothing. */
  readonly privately?: boolean;
}

function recordsSpec(
  appKey: string,
  collection: CollectionScope,
  criteria: RecordCriteria,
): FindSpec {
  return {
    table: 'records',
    scope: { app_key: appKey, collection: collection.name },
    textFields: collection.textFields,
    ...criteria,
  };
}

/**
 * The field of a `record_unique_values` key PostgreSQL reports taken:
 * `Key (app_key, collection, field, value)=(kid_x, tags, label, ripe) ...`.
 * App keys, collection names and field paths hold no comma.
 */
function takenField(error: unknown): string | undefined {
  const pg = error as { detail?: unknown; driverError?: { detail?: unknown } };
  const detail = pg.driverError?.detail ?? pg.detail;
  if (typeof detail !== 'string') return undefined;
  return /\)=\([^,]*, [^,]*, ([^,]*), /.exec(detail)?.[1];
}

function duplicateOf(record: NewRecord, field: string | undefined): never {
  throw MarketplaceError.duplicate(
    `A ${record.collection} with this ${field ?? 'value'} already exists.`,
    field ?? '',
  );
}

function duplicate(error: unknown, record: NewRecord): never {
  if (isUniqueViolation(error, 'records_unique_name_key'))
    duplicateOf(record, record.uniqueField);
  if (isUniqueViolation(error, 'record_unique_values_value_key'))
    duplicateOf(record, takenField(error));
  if (isUniqueViolation(error)) throw MarketplaceError.duplicateId(record.id);
  throw error;
}

/** The parameters that list a record's other unique values. */
function valueColumns(record: NewRecord): [string[], Array<string | null>] {
  const values = record.uniqueValues ?? [];
  return [values.map((v) => v.field), values.map((v) => v.value)];
}

/**
 * The insert of a record whose `id_producer` ($8), when given, must name
 * a user of the app; `also` adds statements that write with it.
 */
function insertRecordSql(also: string): string {
  return `WITH admitted AS (
     SELECT WHERE $8::text IS NULL
        OR EXISTS (SELECT 1 FROM marketplace.users WHERE app_key = $1 AND id = $8)),
   gone AS (
     DELETE FROM marketplace.record_tombstones
      WHERE app_key = $1 AND collection = $2 AND id = $3 AND EXISTS (SELECT FROM admitted))${also}
   INSERT INTO marketplace.records (app_key, collection, id, doc, creator, unique_name, created_at, updated_at)
   SELECT $1, $2, $3, $4::jsonb, $5, $6, $7::timestamptz, $7::timestamptz
    WHERE EXISTS (SELECT FROM admitted)
   RETURNING 1`;
}

/**
 * The insert of many records (a JSON array of `BatchRow`s) with what
 * `insertRecordSql` checks of each. A record it skips (its producer names
 * no user, or a key of it is taken) is not returned.
 */
const INSERT_RECORDS_SQL = `WITH input AS (
     SELECT * FROM jsonb_to_recordset($1::jsonb)
       AS r(a text, c text, i text, d jsonb, cr text, u text, t timestamptz, p text)),
   ins AS (
     INSERT INTO marketplace.records (app_key, collection, id, doc, creator, unique_name, created_at, updated_at)
     SELECT a, c, i, d, cr, u, t, t FROM input
      WHERE p IS NULL OR EXISTS (SELECT 1 FROM marketplace.users WHERE app_key = input.a AND id = input.p)
     ON CONFLICT DO NOTHING
     RETURNING app_key, collection, id),
   gone AS (
     DELETE FROM marketplace.record_tombstones t USING ins
      WHERE t.app_key = ins.app_key AND t.collection = ins.collection AND t.id = ins.id)
   SELECT app_key, collection, id FROM ins`;

/** One record of `INSERT_RECORDS_SQL`'s input. */
interface BatchRow {
  readonly a: string;
  readonly c: string;
  readonly i: string;
  readonly d: KinveyDoc;
  readonly cr: string;
  readonly u: string | null;
  readonly t: Date;
  readonly p: string | null;
}

/**
 * What a batched insert did with one record: stored it, or left it to
 * be inserted alone (skipped, or sent in a batch that failed for another
 * record's data), where it meets the exact error.
 */
type BatchOutcome = 'stored' | 'alone';

/**
 * SQLSTATE classes of a batch that failed for what one of its records
 * holds (data exceptions, integrity violations, a deadlock between two
 * batches): its records are tried again one at a time. Any other failure
 * (the database unreachable, a timeout) fails each record as it would
 * have failed alone.
 */
const FAILED_FOR_A_RECORD = /^(22|23|40)/;

/** A record waiting for its batch: its key, and its `BatchRow` as JSON. */
interface BatchItem {
  readonly key: string;
  readonly json: string;
}

function batchRow(record: NewRecord, producer: string | undefined): BatchRow {
  return {
    a: record.appKey,
    c: record.collection,
    i: record.id,
    d: record.doc,
    cr: record.creator,
    u: record.uniqueName ?? null,
    t: record.now,
    p: producer ?? null,
  };
}

const keyOf = (appKey: string, collection: string, id: string) =>
  `${appKey}\u0000${collection}\u0000${id}`;

/** Records of the four collections, and tombstones of deleted ones. */
@Injectable()
export class RecordsRepository extends MarketplaceRepository {
  /**
   * Creates of single records go in together (group commit): one batch at
   * a time per process, as the collector's flush; one, two and four in
   * flight were measured (docs/performance.md). A batch holds at most a
   * MiB of JSON (the body limit), beyond its first record.
   */
  private readonly batches = new WriteBatches<BatchItem, BatchOutcome>(
    (items) => this.insertBatch(items),
    {
      flights: 1,
      items: 64,
      weight: 1024 * 1024,
      weigh: (item) => item.json.length,
    },
  );

  /**
   * Stores a new record, unless `producer` (its `id_producer`) names no
   * user of the app: then nothing is written and the answer is false.
   * Outside a transaction, a record with at most one unique value goes in
   * a batch; one the batch skips (or could not store) goes alone, which
   * tells why.
   */
  async insert(
    record: NewRecord,
    producer?: string,
    tx?: MarketplaceTx,
  ): Promise<boolean> {
    if (!tx && !record.uniqueValues?.length) {
      const json = JSON.stringify(batchRow(record, producer));
      // PostgreSQL's jsonb refuses NUL: such a record would fail its whole
      // batch, and every other record in it would go again alone.
      if (!json.includes('\\u0000')) {
        const outcome = await this.batches.add({
          key: keyOf(record.appKey, record.collection, record.id),
          json,
        });
        if (outcome === 'stored') {
          await this.sql.wroteForCaller();
          return true;
        }
      }
    }
    return this.insertAlone(record, producer, tx);
  }

  /**
   * One batch of `batches`. A record whose key an earlier one of the batch
   * holds is left to go alone, so each key answers for one record.
   */
  private async insertBatch(
    items: readonly BatchItem[],
  ): Promise<BatchOutcome[]> {
    const first = new Map<string, BatchItem>();
    for (const item of items)
      if (!first.has(item.key)) first.set(item.key, item);
    const sent = [...first.values()];
    let stored: Array<{ app_key: string; collection: string; id: string }>;
    try {
      stored = await this.sql.prepared(
        'mkt_insert_records',
        INSERT_RECORDS_SQL,
        [`[${sent.map((item) => item.json).join(',')}]`],
      );
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && FAILED_FOR_A_RECORD.test(code))
        return items.map(() => 'alone');
      throw error;
    }
    const storedKeys = new Set(
      stored.map((row) => keyOf(row.app_key, row.collection, row.id)),
    );
    return items.map((item) =>
      first.get(item.key) === item && storedKeys.has(item.key)
        ? 'stored'
        : 'alone',
    );
  }

  private async insertAlone(
    record: NewRecord,
    producer: string | undefined,
    tx: MarketplaceTx | undefined,
  ): Promise<boolean> {
    const params = [
      record.appKey,
      record.collection,
      record.id,
      record.doc,
      record.creator,
      record.uniqueName,
      record.now,
      producer ?? null,
    ];
    try {
      // Prepared: the statement of every create, parsed once per connection
      // (in a transaction, the first write of a collection, a plain one).
      const run = (name: string, text: string, values: unknown[]) =>
        tx ? tx.rows(text, values) : this.sql.prepared(name, text, values);
      // A collection with one unique field or none (the produce app's) has
      // no other values to keep: its create writes the record alone.
      const rows = record.uniqueValues?.length
        ? await run(
            'mkt_insert_record_values',
            insertRecordSql(
              `,
               kept AS (
                 INSERT INTO marketplace.record_unique_values (app_key, collection, record_id, field, value)
                 SELECT $1, $2, $3, u.field, u.value FROM unnest($9::text[], $10::text[]) AS u(field, value)
                  WHERE EXISTS (SELECT FROM admitted))`,
            ),
            [...params, ...valueColumns(record)],
          )
        : await run('mkt_insert_record', insertRecordSql(''), params);
      return rows.length > 0;
    } catch (error) {
      duplicate(error, record);
    }
  }

  async replace(record: NewRecord): Promise<void> {
    const update = `UPDATE marketplace.records SET doc = $4, unique_name = $5, updated_at = $6
          WHERE app_key = $1 AND collection = $2 AND id = $3`;
    const params = [
      record.appKey,
      record.collection,
      record.id,
      record.doc,
      record.uniqueName,
      record.now,
    ];
    try {
      if (record.uniqueValues === undefined)
        await this.sql.rows(update, params);
      // The values are written from the update's result, so after it has
      // locked the record: of two updates of one record, the second
      // rewrites the first's rows (ON CONFLICT sees them, committed or not
      // when it began), and the record and its values end as one of them.
      else
        await this.sql.rows(
          `WITH updated AS (${update} RETURNING id)
           INSERT INTO marketplace.record_unique_values AS v (app_key, collection, record_id, field, value)
           SELECT $1, $2, updated.id, u.field, u.value
             FROM updated, unnest($7::text[], $8::text[]) AS u(field, value)
           ON CONFLICT (app_key, collection, record_id, field)
           DO UPDATE SET value = EXCLUDED.value WHERE v.value IS DISTINCT FROM EXCLUDED.value`,
          [...params, ...valueColumns(record)],
        );
    } catch (error) {
      duplicate(error, record);
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

  /** The records a find selects (on the replica when there is one). */
  list(
    appKey: string,
    collection: CollectionScope,
    criteria: RecordCriteria,
  ): Promise<KinveyDoc[]> {
    return this.db.find(recordsSpec(appKey, collection, criteria));
  }

  /** `list`, each record as JSON text as PostgreSQL renders it. */
  listTexts(
    appKey: string,
    collection: CollectionScope,
    criteria: RecordCriteria,
  ): Promise<string[]> {
    return this.db.findTexts(recordsSpec(appKey, collection, criteria));
  }

  count(
    appKey: string,
    collection: CollectionScope,
    criteria: RecordCriteria,
  ): Promise<number> {
    return this.db.count(recordsSpec(appKey, collection, criteria));
  }

  /**
   * `_group`: the aggregations Kinvey SDKs generate, recognised by the
   * compiler and computed in one SELECT; client code never runs.
   */
  async group(
    appKey: string,
    collection: CollectionScope,
    body: unknown,
    readScope: ReadScope,
  ): Promise<Record<string, unknown>[]> {
    const params = new SqlParams();
    const compiled = compileGroup(body, 't.doc', params);
    const scope = [
      `t.app_key = ${params.add(appKey)}`,
      `t.collection = ${params.add(collection.name)}`,
    ];
    if (readScope.readableBy !== undefined)
      scope.push(scopeSql('t.doc', readScope, params));
    const rows = await this.db.select<Record<string, unknown>>(
      compiled.select('marketplace.records t', scope.join(' AND ')),
      params.values,
      compiled.condition.usesRegex,
    );
    return compiled.reply(rows);
  }

  /** Deletes one record and leaves its tombstone; returns the count. */
  deleteOne(key: RecordKey, now: Date): Promise<number> {
    const params = new SqlParams();
    const where = `r.id = ${params.add(key.id)}`;
    return this.deleteWhere(
      key.appKey,
      key.collection,
      where,
      params.values,
      now,
    );
  }

  /**
   * Deletes the records matching `filter` (those `writableBy` may write,
   * when given) and leaves their tombstones; returns the count.
   */
  deleteMatching(
    appKey: string,
    collection: CollectionScope,
    filter: unknown,
    writableBy: string | undefined,
    privately: boolean,
    now: Date,
  ): Promise<number> {
    const built = findWhere(
      {
        table: 'records',
        scope: { app_key: appKey, collection: collection.name },
        writableBy,
        privately,
        filter,
        textFields: collection.textFields,
      },
      'r',
    );
    return this.deleteWhere(
      appKey,
      collection.name,
      built.where,
      built.params.values,
      now,
    );
  }

  private async deleteWhere(
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
         RETURNING r.id, r.doc->'_acl' AS acl),
       freed AS (
         DELETE FROM marketplace.record_unique_values v USING gone
          WHERE v.app_key = $${n + 1} AND v.collection = $${n + 2} AND v.record_id = gone.id),
       stones AS (
         INSERT INTO marketplace.record_tombstones (app_key, collection, id, deleted_at, acl)
         SELECT $${n + 1}, $${n + 2}, id, $${n + 3}, acl FROM gone
         ON CONFLICT (app_key, collection, id) DO UPDATE SET deleted_at = EXCLUDED.deleted_at, acl = EXCLUDED.acl)
       SELECT count(*)::int AS n FROM gone`,
      [...values, appKey, collection, now],
    );
    return rows[0]?.n ?? 0;
  }

  /**
   * The ids of records deleted since `since` that `scope` could read (by
   * the `_acl` each had; one without, as a record without `_acl`).
   */
  async tombstonesSince(
    appKey: string,
    collection: string,
    since: Date,
    scope: ReadScope,
  ): Promise<string[]> {
    const params = new SqlParams(3);
    const readable = scopeAclSql('t.acl', scope, params);
    const rows = await this.sql.rows<{ id: string }>(
      `SELECT t.id FROM marketplace.record_tombstones t
        WHERE t.app_key = $1 AND t.collection = $2 AND t.deleted_at >= $3 AND ${readable}
        ORDER BY t.deleted_at, t.id`,
      [appKey, collection, since, ...params.values],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Whether user `id` exists and `reader` may read it in a private user
   * collection (itself, or named in the user's `_acl.r` or `_acl.w`).
   */
  async userReadablePrivately(
    appKey: string,
    id: string,
    reader: string,
  ): Promise<boolean> {
    const params = new SqlParams(2);
    const readable = readableSql('t.doc', reader, params, true);
    const rows = await this.sql.rows(
      `SELECT 1 FROM marketplace.users t WHERE t.app_key = $1 AND t.id = $2 AND ${readable}`,
      [appKey, id, ...params.values],
    );
    return rows.length > 0;
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
