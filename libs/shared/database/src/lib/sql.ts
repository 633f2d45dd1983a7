import type { Pool, PoolClient, QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/** Something that runs parameterised SQL: the pool, or one transaction. */
export interface SqlExecutor {
  rows<T extends QueryResultRow>(
    text: string,
    values?: readonly unknown[],
  ): Promise<T[]>;
}

/** The `pg` pool behind a TypeORM DataSource. */
export function poolOf(dataSource: DataSource): Pool {
  return (dataSource.driver as PostgresDriver).master as Pool;
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
  private static readonly clientIds = new WeakMap<PoolClient, number>();
  private static nextClientId = 0;

  constructor(private readonly dataSource: DataSource) {}

  /**
   * Like `rows`, as a named prepared statement: parsed once per connection,
   * and after a few runs PostgreSQL reuses a generic plan instead of planning
   * again, which matters for big statements run many times (the ingestion
   * flush). The name gets a per-connection suffix so connections that share
   * one session (the embedded PGlite) never collide.
   */
  async prepared<T extends QueryResultRow>(
    name: string,
    text: string,
    values: readonly unknown[],
  ): Promise<T[]> {
    const client = await poolOf(this.dataSource).connect();
    let id = Sql.clientIds.get(client);
    if (id === undefined) {
      id = ++Sql.nextClientId;
      Sql.clientIds.set(client, id);
    }
    const ignore = () => undefined;
    client.on('error', ignore);
    let failure: unknown;
    try {
      return (
        await client.query<T>({
          name: `${name}_${id}`,
          text,
          values: values as unknown[],
        })
      ).rows;
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      client.off('error', ignore);
      // A failure without a SQLSTATE (socket, protocol) discards the connection.
      const code = (failure as { code?: unknown } | undefined)?.code;
      client.release(
        failure !== undefined &&
          !(typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)),
      );
    }
  }

  async rows<T extends QueryResultRow>(
    text: string,
    values?: readonly unknown[],
  ): Promise<T[]> {
    return (await poolOf(this.dataSource).query<T>(text, values as unknown[]))
      .rows;
  }

  /** Runs `work` in one transaction on one connection; rolls back on error. */
  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const client = await poolOf(this.dataSource).connect();
    // A checked-out client whose connection drops between two statements
    // emits 'error'; unheard, that would crash the process. The statement
    // in flight (or the next one) fails instead, and so does the work.
    const ignore = () => undefined;
    client.on('error', ignore);
    let broken = false;
    try {
      await client.query('BEGIN');
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
