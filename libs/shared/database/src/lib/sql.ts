import type { Pool, PoolClient, QueryResult, QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

import {
  fallBackFromNamedStatements,
  hasNamedStatements,
  statementName,
} from './named-statements';
import { isConnectionFailure } from './pg-errors';
import { currentCaller } from './read-your-writes/caller-scope';
import {
  PRIMARY_POSITION,
  readYourWritesOf,
} from './read-your-writes/data-source-read-your-writes';
import type { ReadYourWrites } from './read-your-writes/read-your-writes';
import {
  WAL_POSITION,
  parseWalPosition,
} from './read-your-writes/wal-position';

/** Something that runs parameterised SQL: the pool, or one transaction. */
export interface SqlExecutor {
  rows<T extends QueryResultRow>(
    text: string,
    values?: readonly unknown[],
  ): Promise<T[]>;
}

/** The `pg` pool behind a TypeORM DataSource: the primary's. */
export function poolOf(dataSource: DataSource): Pool {
  return (dataSource.driver as PostgresDriver).master as Pool;
}

/**
 * The pool of the DataSource's read replica (`DATABASE_READ_URL`), or the
 * primary's when it has none.
 */
export function readPoolOf(dataSource: DataSource): Pool {
  const driver = dataSource.driver as PostgresDriver;
  return ((driver.slaves as Pool[])[0] ?? driver.master) as Pool;
}

/** Whether the DataSource has a read replica of its own. */
export function hasReadReplica(dataSource: DataSource): boolean {
  return (dataSource.driver as PostgresDriver).slaves.length > 0;
}

/** Transaction-local settings: `SET LOCAL name = value` right after BEGIN. */
export type LocalSettings = Readonly<Record<string, string | number>>;

/** SQLSTATE of a standby's query cancelled for a conflict with recovery. */
const RECOVERY_CONFLICT = '40001';
const SETTING_NAME = /^[a-z_]+$/;
const SETTING_VALUE = /^[A-Za-z0-9_]+$/;
/**
 * A statement that writes, a data-modifying WITH included: what a caller's
 * later replica reads must see. Matching a locking `FOR UPDATE` too costs
 * one position query, never a missed write; no statement here writes
 * through a function.
 */
const WRITES = /\b(?:INSERT|UPDATE|DELETE|MERGE)\b/i;
/**
 * COMMIT, then the position past its record, in one simple query: no round
 * trip of its own, and one server session even through PgBouncer.
 */
const COMMIT_AT = `COMMIT; ${PRIMARY_POSITION}`;

function beginWith(settings: LocalSettings | undefined): string {
  const sets = Object.entries(settings ?? {}).map(([name, value]) => {
    // Inlined into SQL (SET takes no parameters): only plain words pass.
    if (!SETTING_NAME.test(name) || !SETTING_VALUE.test(String(value)))
      throw new Error(`Refusing odd setting ${name} = ${value}`);
    return `SET LOCAL ${name} = ${value}`;
  });
  // One round trip: a simple query may hold several statements.
  return ['BEGIN', ...sets].join('; ');
}

class ClientExecutor implements SqlExecutor {
  /** Whether a statement that writes ran (counted only when asked to). */
  wrote = false;

  constructor(
    private readonly client: PoolClient,
    private readonly watchWrites: boolean,
  ) {}

  async rows<T extends QueryResultRow>(
    text: string,
    values?: readonly unknown[],
  ): Promise<T[]> {
    if (this.watchWrites && !this.wrote) this.wrote = WRITES.test(text);
    return (await this.client.query<T>(text, values as unknown[])).rows;
  }
}

/**
 * Parameterised SQL straight on the DataSource's `pg` pool.
 *
 * Hot paths use this rather than TypeORM's query runner, which costs a
 * second round of bookkeeping per query and returns `[rows, count]` for
 * UPDATE/DELETE ... RETURNING. Entities still define the schema and its
 * migrations; values always travel as bind parameters.
 */
export class Sql implements SqlExecutor {
  /**
   * `replica`: the DataSource's read replica, for reads that tolerate its
   * lag; the primary when there is no replica, and for a caller (see
   * `runAsCaller`) whose last write the replica has not replayed yet, so
   * every caller reads its own writes.
   */
  constructor(
    private readonly dataSource: DataSource,
    private readonly target: 'primary' | 'replica' = 'primary',
  ) {}

  /** The same DataSource's reads that may go to its replica. */
  static replica(dataSource: DataSource): Sql {
    return new Sql(dataSource, 'replica');
  }

  /**
   * Runs `work` on the target's pool. `text`: the statement, so that a
   * write is remembered for its caller's replica reads (read-your-writes).
   */
  private onPool<T>(
    work: (pool: Pool) => Promise<T>,
    text?: string,
  ): Promise<T> {
    const dataSource = this.dataSource;
    if (!hasReadReplica(dataSource)) return work(poolOf(dataSource));
    return this.target === 'primary'
      ? this.onPrimary(work, text)
      : this.onReplica(work);
  }

  private async onPrimary<T>(
    work: (pool: Pool) => Promise<T>,
    text: string | undefined,
  ): Promise<T> {
    const result = await work(poolOf(this.dataSource));
    const caller =
      text !== undefined && WRITES.test(text) ? currentCaller() : undefined;
    if (caller !== undefined) await this.readYourWrites().wroteNow(caller);
    return result;
  }

  /**
   * A caller whose last write the replica has not replayed reads from the
   * primary. A replica that cannot be reached, or that cancelled a read for
   * a conflict with its recovery, is no reason to fail a read the primary
   * can serve: it runs there instead.
   */
  private async onReplica<T>(work: (pool: Pool) => Promise<T>): Promise<T> {
    const caller = currentCaller();
    if (
      caller !== undefined &&
      !(await this.readYourWrites().replicaServes(caller))
    )
      return work(poolOf(this.dataSource));
    try {
      return await work(readPoolOf(this.dataSource));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (!isConnectionFailure(error) && code !== RECOVERY_CONFLICT)
        throw error;
      return work(poolOf(this.dataSource));
    }
  }

  /**
   * Remembers the position `COMMIT_AT` answered; past the commit, nothing
   * may fail the work: without a position, one is read after it.
   */
  private async noteCommit(caller: string, answer: unknown): Promise<void> {
    const results = Array.isArray(answer) ? (answer as QueryResult[]) : [];
    const lsn: unknown = results[1]?.rows[0]?.['lsn'];
    const tracker = this.readYourWrites();
    if (typeof lsn === 'string' && WAL_POSITION.test(lsn))
      tracker.wrote(caller, parseWalPosition(lsn));
    else await tracker.wroteNow(caller);
  }

  /**
   * Remembers a write made for the current caller by work that ran outside
   * its scope (a batch another request sent), so its replica reads see it.
   */
  async wroteForCaller(): Promise<void> {
    if (this.target !== 'primary' || !hasReadReplica(this.dataSource)) return;
    const caller = currentCaller();
    if (caller !== undefined) await this.readYourWrites().wroteNow(caller);
  }

  private readYourWrites(): ReadYourWrites {
    return readYourWritesOf(
      poolOf(this.dataSource),
      readPoolOf(this.dataSource),
    );
  }

  /**
   * Like `rows`, for a hot statement of fixed text: a named prepared
   * statement where the pool allows them (`namedStatements`), so the
   * server parses and plans it once per session; else an unnamed one, which
   * any pooler carries (named statements live in one server session, which
   * PgBouncer's transaction pooling before 1.21 does not keep between two
   * transactions). A named statement that meets another session falls back
   * to unnamed ones for the pool (`fallBackFromNamedStatements`).
   */
  async prepared<T extends QueryResultRow>(
    name: string,
    text: string,
    values: readonly unknown[],
  ): Promise<T[]> {
    return this.onPool(async (pool) => {
      const unnamed = { text, values: values as unknown[] };
      const named = hasNamedStatements(pool) && statementName(name, text);
      if (!named) return (await pool.query<T>(unnamed)).rows;
      try {
        return (await pool.query<T>({ ...unnamed, name: named })).rows;
      } catch (error) {
        if (!fallBackFromNamedStatements(pool, error)) throw error;
        return (await pool.query<T>(unnamed)).rows;
      }
    }, text);
  }

  async rows<T extends QueryResultRow>(
    text: string,
    values?: readonly unknown[],
  ): Promise<T[]> {
    return this.onPool(
      async (pool) => (await pool.query<T>(text, values as unknown[])).rows,
      text,
    );
  }

  /**
   * Runs `work` in one transaction on one connection; rolls back on error.
   * `settings` hold for this transaction only (`SET LOCAL`), the only kind
   * of setting a transaction-pooled connection carries.
   */
  async transaction<T>(
    work: (tx: SqlExecutor) => Promise<T>,
    settings?: LocalSettings,
  ): Promise<T> {
    const begin = beginWith(settings);
    // The caller of a write on the primary, when a replica must see it.
    const caller =
      this.target === 'primary' && hasReadReplica(this.dataSource)
        ? currentCaller()
        : undefined;
    return this.onPool((pool) => this.transactionOn(pool, begin, work, caller));
  }

  private async transactionOn<T>(
    pool: Pool,
    begin: string,
    work: (tx: SqlExecutor) => Promise<T>,
    caller: string | undefined,
  ): Promise<T> {
    const client = await pool.connect();
    // A checked-out client whose connection drops between two statements
    // emits 'error'; unheard, that would crash the process. The statement
    // in flight (or the next one) fails instead, and so does the work.
    const ignore = () => undefined;
    client.on('error', ignore);
    let broken = false;
    let result: T;
    let written: { caller: string; answer: unknown } | undefined;
    try {
      await client.query(begin);
      const tx = new ClientExecutor(client, caller !== undefined);
      result = await work(tx);
      if (caller === undefined || !tx.wrote) await client.query('COMMIT');
      else written = { caller, answer: await client.query(COMMIT_AT) };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw error;
    } finally {
      client.off('error', ignore);
      // A connection that could not even roll back is discarded, not pooled.
      client.release(broken);
    }
    // Once the connection is back: noting may need one of the pool's.
    if (written) await this.noteCommit(written.caller, written.answer);
    return result;
  }
}
