import { Inject, Injectable } from '@nestjs/common';

import { RESULT_SET_CAP } from '../marketplace.constants';
import { checkCap } from '../kinvey/find-params';
import type { KinveyDoc } from '../kinvey/kinvey-doc';
import { QUERY_COMPILER } from './query-compiler.port';
import type { ParamList, QueryCompiler } from './query-compiler.port';
import { RecordsRepository } from '../records/records.repository';

export type FindTable = 'records' | 'users' | 'files';

export interface FindSpec {
  readonly table: FindTable;
  /** Equality on columns that scope the search (app, collection). */
  readonly scope: Readonly<Record<string, unknown>>;
  /** More conditions (access rules, `NOT disabled`), given the params. */
  readonly extra?: (params: ParamList) => string;
  readonly filter?: unknown;
  /** Fields the table's documents always hold as strings (index-served). */
  readonly textFields?: ReadonlySet<string>;
  readonly sort?: unknown;
  readonly limit?: number;
  readonly skip?: number;
}

export interface BuiltWhere {
  readonly where: string;
  readonly params: ParamList;
  readonly usesRegex: boolean;
}

export interface FindSelect {
  readonly text: string;
  readonly values: readonly unknown[];
  readonly usesRegex: boolean;
}

/** Turns a Kinvey find (filter, sort, limit, skip) into one parameterised SELECT. */
@Injectable()
export class Finder {
  constructor(
    @Inject(QUERY_COMPILER) readonly compiler: QueryCompiler,
    private readonly records: RecordsRepository,
  ) {}

  where(spec: FindSpec, alias = 't'): BuiltWhere {
    const params = this.compiler.params();
    const conditions = Object.entries(spec.scope).map(
      ([column, value]) => `${alias}.${column} = ${params.add(value)}`,
    );
    const extra = spec.extra?.(params);
    if (extra) conditions.push(extra);
    let usesRegex = false;
    if (spec.filter !== undefined && spec.filter !== null) {
      const compiled = this.compiler.compileFilter(
        spec.filter,
        `${alias}.doc`,
        params,
        spec.textFields,
      );
      conditions.push(`(${compiled.sql})`);
      usesRegex = compiled.usesRegex;
    }
    return { where: conditions.join(' AND '), params, usesRegex };
  }

  /** Matching docs; without a limit, more than 10,000 is ResultSetSizeExceeded. */
  async find(spec: FindSpec): Promise<KinveyDoc[]> {
    const select = this.select(spec);
    const rows = await this.records.select<{ doc: KinveyDoc }>(
      select.text,
      select.values,
      select.usesRegex,
    );
    checkCap(rows.length, spec.limit !== undefined);
    return rows.map((row) => row.doc);
  }

  /**
   * `find`, each document as PostgreSQL renders it (JSON text), so a
   * response can be written without parsing and serialising it again.
   */
  async findTexts(spec: FindSpec): Promise<string[]> {
    const select = this.select(spec, 'text');
    const rows = await this.records.select<{ doc: string }>(
      select.text,
      select.values,
      select.usesRegex,
    );
    checkCap(rows.length, spec.limit !== undefined);
    return rows.map((row) => row.doc);
  }

  /** The SELECT `find` runs (apart so its plan can be examined). */
  select(spec: FindSpec, as: 'jsonb' | 'text' = 'jsonb'): FindSelect {
    const built = this.where(spec);
    const sort = spec.sort
      ? this.compiler.compileSort(
          spec.sort,
          't.doc',
          built.params,
          spec.textFields,
        )
      : '';
    const order = sort ? `${sort}, t.created_at, t.id` : 't.created_at, t.id';
    const limit = built.params.add(
      spec.limit !== undefined
        ? Math.min(spec.limit, RESULT_SET_CAP)
        : RESULT_SET_CAP + 1,
    );
    const skip = built.params.add(spec.skip ?? 0);
    return {
      text: `SELECT t.doc${as === 'text' ? '::text AS doc' : ''} FROM marketplace.${spec.table} t WHERE ${built.where}
        ORDER BY ${order} LIMIT ${limit} OFFSET ${skip}`,
      values: built.params.values,
      usesRegex: built.usesRegex,
    };
  }

  async count(spec: FindSpec): Promise<number> {
    const built = this.where(spec);
    const rows = await this.records.select<{ n: number }>(
      `SELECT count(*)::int AS n FROM marketplace.${spec.table} t WHERE ${built.where}`,
      built.params.values,
      built.usesRegex,
    );
    return rows[0]?.n ?? 0;
  }
}
