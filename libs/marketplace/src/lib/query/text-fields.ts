import { conjunction, isOperatorObject } from './query-operators';
import { isPlainObject } from '../kinvey/kinvey-doc';
import type { SqlParams } from './sql-params';
import { MarketplaceError } from '../common/marketplace.errors';

/**
 * Dotted field names that every stored document of a collection holds as a
 * JSON string when it holds them at all (never null, an array or an object):
 * fields the collection's rules validate and fields the server writes.
 * Conditions and sorts on them compile to plain text comparisons that a
 * B-tree expression index serves; MongoDB's semantics are unchanged because
 * its array and type rules cannot apply to a value that is always a string.
 */
export type TextFields = ReadonlySet<string>;

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The field as `text COLLATE "C"` (MongoDB compares strings by code point),
 * written exactly as the expression indexes of the migrations are, so the
 * planner matches them. Names come from the code's own list, never from a
 * request, and are checked to be plain identifiers all the same.
 */
export function textFieldSql(doc: string, field: string): string {
  const segments = field.split('.');
  if (!segments.every((s) => NAME.test(s)))
    throw new Error(`"${field}" cannot be an indexed text field`);
  const last = segments.pop() as string;
  const path = segments.map((s) => ` -> '${s}'`).join('');
  return `((${doc}${path} ->> '${last}') COLLATE "C")`;
}

const COMPARISONS: Readonly<Record<string, string>> = {
  $gt: '>',
  $gte: '>=',
  $lt: '<',
  $lte: '<=',
};

/**
 * A condition on a text field, or undefined when the general compiler
 * should handle it (operators without a text form, operands it refuses
 * with its own error). Every result is TRUE or FALSE, never NULL, so it
 * can stand under NOT.
 */
export function textFieldCondition(
  field: string,
  condition: unknown,
  params: SqlParams,
): string | undefined {
  if (!isOperatorObject(condition)) return equals(field, condition, params);
  const parts: string[] = [];
  for (const [op, operand] of Object.entries(condition)) {
    const part = operator(field, op, operand, params);
    if (part === undefined) return undefined;
    parts.push(part);
  }
  return conjunction(parts);
}

function operator(
  field: string,
  op: string,
  operand: unknown,
  params: SqlParams,
): string | undefined {
  switch (op) {
    case '$eq':
      return equals(field, operand, params);
    case '$ne':
      return negate(equals(field, operand, params));
    case '$in':
    case '$nin': {
      const any = anyOf(field, op, operand, params);
      return op === '$in' ? any : negate(any);
    }
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      return compare(field, op, operand, params);
    case '$exists':
      if (typeof operand !== 'boolean' && typeof operand !== 'number')
        return undefined;
      return operand ? `${field} IS NOT NULL` : `${field} IS NULL`;
    case '$not': {
      if (!isOperatorObject(operand)) return undefined;
      return negate(textFieldCondition(field, operand, params));
    }
    default:
      return undefined;
  }
}

function negate(condition: string | undefined): string | undefined {
  return condition === undefined ? undefined : `NOT (${condition})`;
}

/** Missing is the only way to equal null; nothing but a string equals a string. */
function equals(field: string, value: unknown, params: SqlParams): string {
  if (value === null) return `${field} IS NULL`;
  if (typeof value !== 'string') return 'FALSE';
  return `(${field} IS NOT NULL AND ${field} = ${params.text(value)})`;
}

function anyOf(
  field: string,
  op: string,
  values: unknown,
  params: SqlParams,
): string | undefined {
  if (!Array.isArray(values)) return undefined;
  const operators = (v: unknown) =>
    isPlainObject(v) && Object.keys(v).some((k) => k.startsWith('$'));
  if (values.some(operators))
    throw MarketplaceError.invalidQuery(`${op} cannot hold operators`);
  const strings = values.filter((v): v is string => typeof v === 'string');
  const parts: string[] = [];
  if (strings.length > 0)
    parts.push(
      `(${field} IS NOT NULL AND ${field} = ANY(${params.add(strings)}::text[]))`,
    );
  if (values.includes(null)) parts.push(`${field} IS NULL`);
  return parts.length === 0 ? 'FALSE' : `(${parts.join(' OR ')})`;
}

/** MongoDB compares within one type: strings with strings, null as missing. */
function compare(
  field: string,
  op: string,
  value: unknown,
  params: SqlParams,
): string | undefined {
  if (value === null)
    return op === '$gte' || op === '$lte' ? `${field} IS NULL` : 'FALSE';
  if (typeof value === 'number' || typeof value === 'boolean') return 'FALSE';
  if (typeof value !== 'string') return undefined;
  return `(${field} IS NOT NULL AND ${field} ${COMPARISONS[op]} ${params.text(value)})`;
}

/** Missing sorts first ascending and last descending, as in MongoDB. */
export function textFieldSort(field: string, order: 'ASC' | 'DESC'): string {
  return `${field} ${order} ${order === 'ASC' ? 'NULLS FIRST' : 'NULLS LAST'}`;
}
