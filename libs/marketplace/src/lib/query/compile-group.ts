import { compileFilter } from './compile-filter';
import { isPlainObject } from '../kinvey/kinvey-doc';
import type { CompiledFilter } from './compile-filter';
import { parsePath } from './field-path';
import { recogniseReduce } from './group-reduce';
import type { Reduction } from './group-reduce';
import type { SqlParams } from './sql-params';
import { MarketplaceError } from '../common/marketplace.errors';

export type GroupRow = Record<string, unknown>;

/** `POST /{coll}/_group` compiled: one SELECT, then Kinvey's reply. */
export interface CompiledGroup {
  /** The body's `condition`, already part of `select`. */
  readonly condition: CompiledFilter;
  /**
   * A complete SELECT. `from` is the caller's FROM item exposing the
   * document as the `doc` expression given to compileGroup; `where` its own
   * scope (app, collection, read access) using the same SqlParams.
   */
  select(from: string, where: string): string;
  /** Kinvey's reply: per group, the key fields then the initial fields. */
  reply(rows: readonly GroupRow[]): Record<string, unknown>[];
}

const MAX_KEYS = 16;

export function compileGroup(
  body: unknown,
  doc: string,
  params: SqlParams,
): CompiledGroup {
  if (!isPlainObject(body))
    throw MarketplaceError.invalidRequest('The body must be a JSON object');
  for (const code of ['finalize', 'keyf', '$keyf']) {
    if (body[code] !== undefined && body[code] !== null) {
      throw MarketplaceError.featureUnavailable(
        `${code} would run client code`,
      );
    }
  }
  const keys = keyFields(body['key']);
  const initial = initialValues(body['initial']);
  const reduction = recogniseReduce(body['reduce'] ?? body['reduceFn']);
  checkOutputs(reduction, initial);
  const condition = compileFilter(conditionOf(body), doc, params);

  // The SDK's count() without a field sends key {"": true}: one null group.
  const keyColumns = keys.map((key, i) =>
    key === ''
      ? `'null'::jsonb AS k${i}`
      : `COALESCE(${doc} #> ${params.add(parsePath(key))}::text[], 'null'::jsonb) AS k${i}`,
  );
  const aggregates = aggregateColumns(reduction, doc, params);
  const grouping =
    keys.length === 0
      ? 'HAVING count(*) > 0'
      : `GROUP BY ${keys.map((_, i) => `k${i}`).join(', ')} ORDER BY ${keys.map((_, i) => `k${i}`).join(', ')}`;

  return {
    condition,
    select: (from, where) =>
      `SELECT ${[...keyColumns, ...aggregates].join(', ')} FROM ${from} WHERE (${where}) AND (${condition.sql}) ${grouping}`,
    reply: (rows) =>
      rows.map((row) => ({
        ...Object.fromEntries(keys.map((key, i) => [key, row[`k${i}`]])),
        ...reduce(initial, reduction, row),
      })),
  };
}

function conditionOf(body: Record<string, unknown>): unknown {
  if (body['condition'] !== undefined) return body['condition'];
  const query = body['query'];
  return isPlainObject(query) ? query['filter'] : undefined;
}

function keyFields(key: unknown): string[] {
  if (key === undefined || key === null) return [];
  if (!isPlainObject(key))
    throw MarketplaceError.invalidRequest('key must be an object');
  const fields = Object.entries(key)
    .filter(([, on]) => Boolean(on))
    .map(([field]) => field);
  if (fields.length > MAX_KEYS) {
    throw MarketplaceError.invalidRequest(
      `key takes at most ${MAX_KEYS} fields`,
    );
  }
  for (const field of fields.filter((f) => f !== '')) {
    try {
      parsePath(field);
    } catch {
      throw MarketplaceError.invalidRequest(
        `"${field}" is not a valid key field`,
      );
    }
  }
  return fields;
}

function initialValues(initial: unknown): Record<string, unknown> {
  if (initial === undefined || initial === null) return {};
  if (!isPlainObject(initial))
    throw MarketplaceError.invalidRequest('initial must be an object');
  return initial;
}

function checkOutputs(
  reduction: Reduction,
  initial: Record<string, unknown>,
): void {
  const outputs =
    reduction.kind === 'average'
      ? [reduction.out, reduction.counter]
      : [reduction.out];
  for (const out of outputs) {
    const value = initial[out];
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw MarketplaceError.invalidRequest(`initial.${out} must be a number`);
    }
  }
}

/** Only numeric field values take part: the SDK's JavaScript would turn
 * anything else into NaN or text (see docs/decisions.md). */
function aggregateColumns(
  reduction: Reduction,
  doc: string,
  params: SqlParams,
): string[] {
  if (reduction.kind === 'count') return ['count(*) AS n'];
  const value = `${doc} -> ${params.text(reduction.field)}`;
  const number = `CASE WHEN jsonb_typeof(${value}) = 'number' THEN (${value})::numeric END`;
  switch (reduction.kind) {
    case 'sum':
      return [`sum(${number}) AS total`];
    case 'min':
      return [`min(${number}) AS low`];
    case 'max':
      return [`max(${number}) AS high`];
    case 'average':
      return [`sum(${number}) AS total`, `count(${number}) AS n`];
  }
}

function numberOf(value: unknown): number | undefined {
  return value === null || value === undefined ? undefined : Number(value);
}

function reduce(
  initial: Record<string, unknown>,
  reduction: Reduction,
  row: GroupRow,
): Record<string, unknown> {
  const out = { ...initial };
  const start = Number(initial[reduction.out]);
  const total = numberOf(row['total']) ?? 0;
  const n = numberOf(row['n']) ?? 0;
  switch (reduction.kind) {
    case 'count':
      out[reduction.out] = start + n;
      break;
    case 'sum':
      out[reduction.out] = start + total;
      break;
    case 'min':
      out[reduction.out] = Math.min(start, numberOf(row['low']) ?? start);
      break;
    case 'max':
      out[reduction.out] = Math.max(start, numberOf(row['high']) ?? start);
      break;
    case 'average': {
      const count = Number(initial[reduction.counter]);
      if (n > 0) {
        out[reduction.out] = (start * count + total) / (count + n);
        out[reduction.counter] = count + n;
      }
      break;
    }
  }
  return out;
}
