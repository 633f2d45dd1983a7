import { jsonPath, pathSource, parsePath, valueSource } from './field-path';
import { isPlainObject } from '../kinvey/kinvey-doc';
import type { ValueSource } from './field-path';
import { containment } from './containment';
import {
  conjunction,
  isOperatorObject,
  LOGICAL_OPERATORS,
  MAX_CONDITIONS,
  MAX_DEPTH,
  unknownOperator,
} from './query-operators';
import { toPostgresRegex } from './regex';
import type { SqlParams } from './sql-params';
import { textFieldCondition, textFieldSql } from './text-fields';
import type { TextFields } from './text-fields';
import { MarketplaceError } from '../common/marketplace.errors';

export interface CompiledFilter {
  sql: string;
  /** The caller runs the query under a statement timeout when set. */
  usesRegex: boolean;
}

type Predicate = (value: string) => string;

/** No jsonb array is longer (PostgreSQL caps jsonb near 256 MB). */
const MAX_ARRAY_LENGTH = 2 ** 28;

const TYPE = (value: string) => `jsonb_typeof(${value})`;

/**
 * A MongoDB filter as a boolean SQL expression over the jsonb document
 * `doc`. Every value and request field name is a bind parameter; the SQL
 * text holds only operators, generated aliases and the names of
 * `textFields` (the collection's own, see `text-fields.ts`).
 */
export function compileFilter(
  filter: unknown,
  doc: string,
  params: SqlParams,
  textFields: TextFields = new Set(),
): CompiledFilter {
  if (filter === undefined || filter === null) {
    return { sql: 'TRUE', usesRegex: false };
  }
  const compiler = new FilterCompiler(params, doc, textFields);
  const sql = compiler.query(filter, doc, 0);
  return { sql, usesRegex: compiler.usesRegex };
}

class FilterCompiler {
  usesRegex = false;
  private aliases = 0;
  private conditions = 0;

  constructor(
    private readonly params: SqlParams,
    private readonly root: string,
    private readonly textFields: TextFields,
  ) {}

  query(filter: unknown, doc: string, depth: number): string {
    if (!isPlainObject(filter)) {
      throw MarketplaceError.invalidQuery('A query must be a JSON object');
    }
    this.guard(depth);
    const parts = Object.entries(filter).map(([key, value]) =>
      key.startsWith('$')
        ? this.logical(key, value, doc, depth)
        : this.field(key, value, doc, depth),
    );
    return conjunction(parts);
  }

  private guard(depth: number): void {
    if (depth > MAX_DEPTH)
      throw MarketplaceError.invalidQuery('The query is nested too deeply');
    if (++this.conditions > MAX_CONDITIONS) {
      throw MarketplaceError.invalidQuery(
        `The query has more than ${MAX_CONDITIONS} conditions`,
      );
    }
  }

  /** `q_` keeps generated aliases apart from the caller's. */
  private alias = (prefix: string): string => `q_${prefix}${++this.aliases}`;

  private logical(
    key: string,
    value: unknown,
    doc: string,
    depth: number,
  ): string {
    if (!LOGICAL_OPERATORS.has(key)) throw unknownOperator(key);
    if (!Array.isArray(value) || value.length === 0) {
      throw MarketplaceError.invalidQuery(
        `${key} needs a non-empty array of queries`,
      );
    }
    const parts = value.map((item) => `(${this.query(item, doc, depth + 1)})`);
    if (key === '$and') return parts.join(' AND ');
    const any = parts.join(' OR ');
    return key === '$or' ? any : `NOT (${any})`;
  }

  private field(
    key: string,
    condition: unknown,
    doc: string,
    depth: number,
  ): string {
    this.guard(depth);
    // Only the stored document's own fields are known; not `$elemMatch`'s elements.
    if (doc === this.root && this.textFields.has(key)) {
      const text = textFieldCondition(
        textFieldSql(doc, key),
        condition,
        this.params,
      );
      if (text !== undefined) return text;
    }
    const source = pathSource(doc, parsePath(key), this.params, this.alias);
    if (isOperatorObject(condition)) {
      return this.operators(source, condition, depth + 1);
    }
    return this.equals(source, condition);
  }

  private operators(
    source: ValueSource,
    ops: Record<string, unknown>,
    depth: number,
  ): string {
    this.guard(depth);
    const parts: string[] = [];
    for (const [op, operand] of Object.entries(ops)) {
      if (op === '$options') {
        if (!('$regex' in ops))
          throw MarketplaceError.invalidQuery('$options without $regex');
        continue;
      }
      parts.push(this.operator(source, op, operand, ops, depth));
    }
    return conjunction(parts);
  }

  private operator(
    source: ValueSource,
    op: string,
    operand: unknown,
    ops: Record<string, unknown>,
    depth: number,
  ): string {
    switch (op) {
      case '$eq':
        return this.equals(source, operand);
      case '$ne':
        return `NOT (${this.equals(source, operand)})`;
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        return this.compare(source, op, operand);
      case '$in':
        return this.in(source, operand, op);
      case '$nin':
        return `NOT (${this.in(source, operand, op)})`;
      case '$all':
        return this.all(source, operand, depth);
      case '$exists':
        return this.exists(source, operand);
      case '$size':
        return this.size(source, operand);
      case '$mod':
        return this.mod(source, operand);
      case '$regex':
        return this.regex(source, operand, ops['$options']);
      case '$elemMatch':
        return this.elemMatch(source, operand, depth);
      case '$not':
        if (!isOperatorObject(operand)) {
          throw MarketplaceError.invalidQuery(
            '$not needs an object of operators',
          );
        }
        return `NOT (${this.operators(source, operand, depth + 1)})`;
      default:
        throw unknownOperator(op);
    }
  }

  /** Some value the path reaches, or an element of such an array. */
  private anyCandidate(source: ValueSource, predicate: Predicate): string {
    const t = this.alias('t');
    const c = this.alias('c');
    const elements = `jsonb_array_elements(CASE WHEN ${TYPE(`${t}.v`)} = 'array' THEN ${t}.v END)`;
    return `EXISTS (SELECT 1 FROM ${source.from(t)} CROSS JOIN LATERAL (SELECT ${t}.v UNION ALL SELECT ${elements}) AS ${c}(v) WHERE ${predicate(`${c}.v`)})`;
  }

  /** Some value the path reaches itself (arrays not opened). */
  private anyValue(source: ValueSource, predicate: Predicate): string {
    const t = this.alias('t');
    return `EXISTS (SELECT 1 FROM ${source.from(t)} WHERE ${predicate(`${t}.v`)})`;
  }

  private equals(source: ValueSource, value: unknown): string {
    if (value === null) {
      return `(${this.anyCandidate(source, (c) => `${c} = 'null'::jsonb`)} OR ${source.missing()})`;
    }
    const contained = containment(source, [value], this.params);
    if (contained) return contained;
    const param = this.params.json(value);
    return this.anyCandidate(source, (c) => `${c} = ${param}`);
  }

  private compare(source: ValueSource, op: string, value: unknown): string {
    const sqlOp = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[op] ?? '=';
    if (value === null) {
      // MongoDB: null sorts with missing, below every other type.
      return op === '$gte' || op === '$lte'
        ? this.equals(source, null)
        : 'FALSE';
    }
    const names = source.names;
    if (names && ['number', 'boolean', 'string'].includes(typeof value)) {
      // SQL/JSON path compares within one type only, strings by code point,
      // and its lax filter opens the array reached: MongoDB's rules, faster.
      // Its comparison would open a nested array too; MongoDB's does not.
      const path = `${jsonPath(names.segments)} ? (@.type() != "array" && @ ${sqlOp} $v)`;
      return `jsonb_path_exists(${names.doc}, ${this.params.add(path)}::jsonpath, ${this.params.json({ v: value })})`;
    }
    if (typeof value === 'number' || typeof value === 'boolean') {
      const param = this.params.json(value);
      const type = typeof value;
      return this.anyCandidate(
        source,
        (c) => `(${TYPE(c)} = '${type}' AND ${c} ${sqlOp} ${param})`,
      );
    }
    if (typeof value === 'string') {
      const param = this.params.text(value);
      return this.anyCandidate(
        source,
        (c) =>
          `(${TYPE(c)} = 'string' AND (${c} #>> '{}') COLLATE "C" ${sqlOp} ${param} COLLATE "C")`,
      );
    }
    throw MarketplaceError.featureUnavailable(
      `${op} against an object or array`,
    );
  }

  private in(source: ValueSource, values: unknown, op: string): string {
    if (!Array.isArray(values))
      throw MarketplaceError.invalidQuery(`${op} needs an array`);
    const parts: string[] = [];
    const scalars = values.filter(
      (v) => v !== null && (typeof v !== 'object' || Array.isArray(v)),
    );
    const objects = values.filter(isPlainObject);
    if (objects.some((v) => Object.keys(v).some((k) => k.startsWith('$')))) {
      throw MarketplaceError.invalidQuery(`${op} cannot hold operators`);
    }
    if (values.includes(null)) parts.push(this.equals(source, null));
    const listed = [...scalars, ...objects].map((v) => JSON.stringify(v));
    const contained =
      objects.length === 0
        ? containment(source, scalars, this.params)
        : undefined;
    if (contained) {
      parts.push(contained);
    } else if (listed.length > 0) {
      const param = this.params.add(listed);
      parts.push(
        this.anyCandidate(source, (c) => `${c} = ANY(${param}::jsonb[])`),
      );
    }
    return parts.length === 0 ? 'FALSE' : `(${parts.join(' OR ')})`;
  }

  private all(source: ValueSource, values: unknown, depth: number): string {
    if (!Array.isArray(values))
      throw MarketplaceError.invalidQuery('$all needs an array');
    if (values.length === 0) return 'FALSE';
    return conjunction(
      values.map((value) => {
        if (isPlainObject(value) && '$elemMatch' in value) {
          if (Object.keys(value).length !== 1) {
            throw MarketplaceError.invalidQuery(
              '$all with $elemMatch takes nothing else',
            );
          }
          return this.elemMatch(source, value['$elemMatch'], depth);
        }
        if (isOperatorObject(value)) {
          throw MarketplaceError.invalidQuery(
            '$all takes values or $elemMatch',
          );
        }
        return this.equals(source, value);
      }),
    );
  }

  private exists(source: ValueSource, wanted: unknown): string {
    if (!['boolean', 'number'].includes(typeof wanted) && wanted !== null) {
      throw MarketplaceError.invalidQuery('$exists needs a boolean');
    }
    const names = source.names;
    const any = names
      ? `jsonb_path_exists(${names.doc}, ${this.params.add(jsonPath(names.segments))}::jsonpath)`
      : `EXISTS (SELECT 1 FROM ${source.from(this.alias('t'))})`;
    return wanted ? any : `NOT ${any}`;
  }

  private size(source: ValueSource, size: unknown): string {
    if (typeof size !== 'number' || !Number.isInteger(size) || size < 0) {
      throw MarketplaceError.invalidQuery('$size needs a non-negative integer');
    }
    if (size > MAX_ARRAY_LENGTH) return 'FALSE';
    const param = this.params.add(size);
    return this.anyValue(
      source,
      (v) =>
        `CASE WHEN ${TYPE(v)} = 'array' THEN jsonb_array_length(${v}) = ${param}::int ELSE FALSE END`,
    );
  }

  /** MongoDB truncates the value, the divisor and the remainder to integers. */
  private mod(source: ValueSource, operand: unknown): string {
    if (
      !Array.isArray(operand) ||
      operand.length !== 2 ||
      !operand.every((n) => typeof n === 'number' && Number.isFinite(n))
    ) {
      throw MarketplaceError.invalidQuery('$mod needs [divisor, remainder]');
    }
    const [divisor, remainder] = (operand as number[]).map(Math.trunc);
    if (!divisor)
      throw MarketplaceError.invalidQuery('$mod divisor cannot be 0');
    const d = this.params.add(String(divisor));
    const r = this.params.add(String(remainder));
    return this.anyCandidate(
      source,
      (c) =>
        `CASE WHEN ${TYPE(c)} = 'number' THEN mod(trunc((${c})::numeric), ${d}::numeric) = ${r}::numeric ELSE FALSE END`,
    );
  }

  private regex(
    source: ValueSource,
    pattern: unknown,
    options: unknown,
  ): string {
    const param = this.params.text(toPostgresRegex(pattern, options));
    this.usesRegex = true;
    return this.anyCandidate(
      source,
      (c) =>
        `CASE WHEN ${TYPE(c)} = 'string' THEN (${c} #>> '{}') ~ ${param} ELSE FALSE END`,
    );
  }

  /**
   * mingo's reading: operator criteria apply to each element's value; other
   * criteria are a query on elements that are objects; `{}` matches an
   * object element.
   */
  private elemMatch(
    source: ValueSource,
    criteria: unknown,
    depth: number,
  ): string {
    if (!isPlainObject(criteria)) {
      throw MarketplaceError.invalidQuery('$elemMatch needs an object');
    }
    const e = this.alias('e');
    const element = `${e}.v`;
    const keys = Object.keys(criteria);
    const valueForm =
      keys.length > 0 &&
      keys.every((k) => k.startsWith('$') && !LOGICAL_OPERATORS.has(k));
    const test = valueForm
      ? this.operators(valueSource(element), criteria, depth + 1)
      : `${TYPE(element)} = 'object' AND ${keys.length === 0 ? 'TRUE' : this.query(criteria, element, depth + 1)}`;
    return this.anyValue(
      source,
      (v) =>
        `EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN ${TYPE(v)} = 'array' THEN ${v} END) AS ${e}(v) WHERE ${test})`,
    );
  }
}
