import type { SqlParams } from './sql-params';
import { MarketplaceError } from '../common/marketplace.errors';

/** Array positions; longer digit runs can only name object fields. */
const INDEX = /^\d{1,9}$/;

/** Deeper paths are refused: each segment may cost a bind parameter. */
const MAX_SEGMENTS = 32;

/** Segments of a dotted field name; empty and `$` segments are refused. */
export function parsePath(key: string): string[] {
  const segments = key.split('.');
  if (segments.length > MAX_SEGMENTS) {
    throw MarketplaceError.invalidQuery(
      `Field names have at most ${MAX_SEGMENTS} parts`,
    );
  }
  for (const segment of segments) {
    if (segment === '' || segment.startsWith('$')) {
      throw MarketplaceError.invalidQuery(`"${key}" is not a valid field name`);
    }
  }
  return segments;
}

/** Where a condition finds its values: a path in a document, or one value. */
export interface ValueSource {
  /** A FROM item yielding each value the source reaches as `<alias>.v`. */
  from(alias: string): string;
  /** SQL that is true when the field counts as missing for `null` equality. */
  missing(): string;
  /** Set for a path of names only (no array positions) in a document. */
  readonly names?: { doc: string; segments: readonly string[] };
}

/** A single jsonb value, such as an array element under `$elemMatch`. */
export function valueSource(expression: string): ValueSource {
  return {
    from: (alias) => `(SELECT ${expression}) AS ${alias}(v)`,
    missing: () => 'FALSE',
  };
}

export function jsonPath(segments: readonly string[]): string {
  return `lax $${segments.map((s) => `.${JSON.stringify(s)}`).join('')}`;
}

/**
 * The values a dotted path reaches under MongoDB's rules: a name segment
 * applied to an array applies to each of its elements (one level, as SQL/JSON
 * path's lax mode does), and a numeric segment indexes an array or names a
 * field of an object.
 */
export function pathSource(
  doc: string,
  segments: readonly string[],
  params: SqlParams,
  alias: (prefix: string) => string,
): ValueSource {
  const steps: string[][] = [];
  for (const segment of segments) {
    const last = steps[steps.length - 1];
    if (INDEX.test(segment) || !last || INDEX.test(last[0] ?? '')) {
      steps.push([segment]);
    } else {
      last.push(segment);
    }
  }
  const simple = steps.length === 1 && !INDEX.test(segments[0] ?? '');
  let pathParam: string | undefined; // added on first use only
  return {
    from: (name) => {
      if (!simple)
        return `(${nested(doc, steps, params, alias)}) AS ${name}(v)`;
      pathParam ??= params.add(jsonPath(segments));
      return `jsonb_path_query(${doc}, ${pathParam}::jsonpath) AS ${name}(v)`;
    },
    missing: () => objectPathMissing(doc, segments, params),
    ...(simple ? { names: { doc, segments } } : {}),
  };
}

function nested(
  doc: string,
  steps: readonly string[][],
  params: SqlParams,
  alias: (prefix: string) => string,
): string {
  let query = `SELECT ${doc} AS v`;
  for (const step of steps) {
    const from = alias('p');
    const to = alias('s');
    const segment = step[0] ?? '';
    const reach = INDEX.test(segment)
      ? `(SELECT CASE jsonb_typeof(${from}.v) WHEN 'array' THEN ${from}.v -> ${params.add(Number(segment))}::int WHEN 'object' THEN ${from}.v -> ${params.text(segment)} END) AS ${to}(v)`
      : `jsonb_path_query(${from}.v, ${params.add(jsonPath(step))}::jsonpath) AS ${to}(v)`;
    query = `SELECT ${to}.v FROM (${query}) AS ${from}(v) CROSS JOIN LATERAL ${reach} WHERE ${to}.v IS NOT NULL`;
  }
  return query;
}

/**
 * Missing for `{field: null}`: the path reaches nothing and crosses no array
 * on the way (mingo's reading; see docs/decisions.md). An array indexed by a
 * numeric segment is not crossed.
 */
function objectPathMissing(
  doc: string,
  segments: readonly string[],
  params: SqlParams,
): string {
  const checks = [`(${doc} #> ${params.add([...segments])}::text[]) IS NULL`];
  for (let length = 1; length < segments.length; length++) {
    // Indexing an array (`tags.0`) is not crossing it: out of range is missing.
    if (INDEX.test(segments[length] ?? '')) continue;
    const prefix = params.add(segments.slice(0, length));
    checks.push(
      `jsonb_typeof(${doc} #> ${prefix}::text[]) IS DISTINCT FROM 'array'`,
    );
  }
  return `(${checks.join(' AND ')})`;
}
