import type { Pool, PoolClient, QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

import {
  fallBackFromNamedStatements,
  hasNamedStatements,
  statementName,
} from './named-statements';
import { isConnectionFailure } from './pg-errors';

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
  constructor(private readonly client: PoolClient) {}

  async rows<T extends QueryResultRow>(
    text: string,
    values?: readonly unknown[],
  ): Promise<T[]> {
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
   * lag (never a read that must see the caller's own write); the primary
   * when there is no replica.
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
   * Runs `work` on the target's pool. A replica that cannot be reached, or
   * that cancelled a read for a conflict with its recovery, is no reason to
   * fail a read the primary can serve: it runs there instead.
   */
  private async onPool<T>(work: (pool: Pool) => Promise<T>): Promise<T> {
    if (this.target === 'primary' || !hasReadReplica(this.dataSource))
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
    });
  }

  async rows<T extends QueryResultRow>(
    text: string,
    values?: readonly unknown[],
  ): Promise<T[]> {
    return this.onPool(
      async (pool) => (await pool.query<T>(text, values as unknown[])).rows,
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
    return this.onPool((pool) => this.transactionOn(pool, begin, work));
  }

  private async transactionOn<T>(
    pool: Pool,
    begin: string,
    work: (tx: SqlExecutor) => Promise<T>,
  ): Promise<T> {
    const client = await pool.connect();
    // A checked-out client whose connection drops between two statements
    // emits 'error'; unheard, that would crash the process. The statement
    // in flight (or the next one) fails instead, and so does the work.
    const ignore = () => undefined;
    client.on('error', ignore);
    let broken = false;
    try {
      await client.query(begin);
      const result = await work(new ClientExecutor(client));
      await client.query('COMMIT');
      return result;
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
  }
}
