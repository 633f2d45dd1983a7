import { RESULT_SET_CAP } from '../common/marketplace.constants';
import { scopeSql, writableSql } from './acl-conditions';
import type { Reader } from './acl-conditions';
import { compileFilter } from './compile-filter';
import { compileSort } from './compile-sort';
import { SqlParams } from './sql-params';
import type { TextFields } from './text-fields';

export type FindTable = 'records' | 'users' | 'files';

/** What a Kinvey find asks of one table, as a repository states it. */
export interface FindSpec {
  readonly table: FindTable;
  /** Equality on columns that scope the search (app, collection). */
  readonly scope: Readonly<Record<string, unknown>>;
  /** Only documents this reader may read (`_acl`); all when undefined. */
  readonly readableBy?: Reader;
  /** Only documents this user may write (`_acl`). */
  readonly writableBy?: string;
  /** Kinvey's "Private" level: `_acl.gr` and `_acl.gw` grant nothing. */
  readonly privately?: boolean;
  /** Only rows updated at or after this time (delta sets). */
  readonly updatedSince?: Date;
  readonly filter?: unknown;
  /** Fields the table's documents always hold as strings (index-served). */
  readonly textFields?: TextFields;
  readonly sort?: unknown;
  readonly limit?: number;
  readonly skip?: number;
}

export interface BuiltWhere {
  readonly where: string;
  readonly params: SqlParams;
  readonly usesRegex: boolean;
}

/** A compiled SELECT: its text, bind values, and whether it matches regexes. */
export interface FindSelect {
  readonly text: string;
  readonly values: readonly unknown[];
  readonly usesRegex: boolean;
}

/** The WHERE of a find over rows aliased `alias`. */
export function findWhere(spec: FindSpec, alias = 't'): BuiltWhere {
  const params = new SqlParams();
  const conditions = Object.entries(spec.scope).map(
    ([column, value]) => `${alias}.${column} = ${params.add(value)}`,
  );
  if (spec.readableBy !== undefined)
    conditions.push(scopeSql(`${alias}.doc`, spec, params));
  if (spec.writableBy !== undefined)
    conditions.push(
      writableSql(`${alias}.doc`, params.add(spec.writableBy), spec.privately),
    );
  if (spec.updatedSince !== undefined)
    conditions.push(`${alias}.updated_at >= ${params.add(spec.updatedSince)}`);
  let usesRegex = false;
  if (spec.filter !== undefined && spec.filter !== null) {
    const compiled = compileFilter(
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

/** The one parameterised SELECT of a Kinvey find (filter, sort, limit, skip). */
export function findSelect(
  spec: FindSpec,
  as: 'jsonb' | 'text' = 'jsonb',
): FindSelect {
  const built = findWhere(spec);
  const sort = spec.sort
    ? compileSort(spec.sort, 't.doc', built.params, spec.textFields)
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

/** The count of what a find would select. */
export function countSelect(spec: FindSpec): FindSelect {
  const built = findWhere(spec);
  return {
    text: `SELECT count(*)::int AS n FROM marketplace.${spec.table} t WHERE ${built.where}`,
    values: built.params.values,
    usesRegex: built.usesRegex,
  };
}
