import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Sql } from '@quitanda/database';
import type { SqlExecutor } from '@quitanda/database';
import { DataSource } from 'typeorm';

import { checkCap } from '../kinvey/find-params';
import type { KinveyDoc } from '../kinvey/kinvey-doc';
import {
  MARKETPLACE_DATA_SOURCE,
  REGEX_STATEMENT_TIMEOUT_MS,
} from '../common/marketplace.constants';
import { MarketplaceError } from '../common/marketplace.errors';
import { countSelect, findSelect } from '../query/find-query';
import type { FindSelect, FindSpec } from '../query/find-query';

/**
 * One transaction of the marketplace database. Services only hand it on:
 * every repository method that can join a transaction takes it as its
 * last, optional parameter.
 */
export type MarketplaceTx = SqlExecutor;

const QUERY_CANCELED = '57014';
/** What the query compiler calls to open paths and arrays (see `select`). */
const SET_FUNCTIONS =
  /\bjsonb_(?:path_query|array_elements|each|object_keys)\b/;
const INVALID_REGULAR_EXPRESSION = '2201B';

/**
 * The unit of work (`transaction`) for services, and for repositories the
 * runner of the SELECTs the query compiler builds. Repositories keep their
 * own connections (`MarketplaceRepository`).
 */
@Injectable()
export class MarketplaceDatabase {
  private readonly primary: Sql;
  /** Listings and reads that tolerate replica lag (`DATABASE_READ_URL`). */
  private readonly replica: Sql;

  constructor(
    @InjectDataSource(MARKETPLACE_DATA_SOURCE) dataSource: DataSource,
  ) {
    this.primary = new Sql(dataSource);
    this.replica = Sql.replica(dataSource);
  }

  /** Runs `work` in one transaction on the primary; rolls back on error. */
  transaction<T>(work: (tx: MarketplaceTx) => Promise<T>): Promise<T> {
    return this.primary.transaction(work);
  }

  /**
   * Runs `work` in one transaction that first takes the advisory lock on
   * `key`: changes under one key (an app's collections, its business
   * logic) run one at a time, across replicas, so the limits and unique
   * rules they check hold.
   */
  serialized<T>(
    key: string,
    work: (tx: MarketplaceTx) => Promise<T>,
  ): Promise<T> {
    return this.primary.transaction(async (tx) => {
      await tx.rows('SELECT pg_advisory_xact_lock(hashtext($1))', [key]);
      return work(tx);
    });
  }

  /**
   * Runs a compiled SELECT (listings, counts, groups: on the replica when
   * there is one). One that calls jsonb set functions runs with JIT off:
   * PostgreSQL estimates them at hundreds of rows, so such queries over a
   * few thousand records would be JIT-compiled (about a second each);
   * without JIT they take milliseconds. Transaction-local, as PgBouncer's
   * transaction pooling carries no session setting; the plain and indexed
   * ones (a listing, the text-field conditions) skip that transaction's two
   * extra round trips. With regular expressions, it also runs under a
   * statement timeout; a timeout is the client's 400.
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
        throw MarketplaceError.badRequest(
          'The query took too long (regular expression).',
          `statement timeout ${REGEX_STATEMENT_TIMEOUT_MS} ms`,
        );
      // The compiler refuses what PostgreSQL would reject; this is the net
      // for a pattern it missed, so the client sees its own mistake.
      if (code === INVALID_REGULAR_EXPRESSION)
        throw MarketplaceError.invalidQuery(
          (error as Error).message,
          'Invalid regular expression in the query.',
        );
      throw error;
    }
  }

  private run<T extends Record<string, unknown>>(
    select: FindSelect,
  ): Promise<T[]> {
    return this.select<T>(select.text, select.values, select.usesRegex);
  }

  /** Matching docs; without a limit, more than 10,000 is ResultSetSizeExceeded. */
  async find(spec: FindSpec): Promise<KinveyDoc[]> {
    const rows = await this.run<{ doc: KinveyDoc }>(findSelect(spec));
    checkCap(rows.length, spec.limit !== undefined);
    return rows.map((row) => row.doc);
  }

  /**
   * `find`, each document as PostgreSQL renders it (JSON text), so a
   * response can be written without parsing and serialising it again.
   */
  async findTexts(spec: FindSpec): Promise<string[]> {
    const rows = await this.run<{ doc: string }>(findSelect(spec, 'text'));
    checkCap(rows.length, spec.limit !== undefined);
    return rows.map((row) => row.doc);
  }

  async count(spec: FindSpec): Promise<number> {
    const rows = await this.run<{ n: number }>(countSelect(spec));
    return rows[0]?.n ?? 0;
  }
}
