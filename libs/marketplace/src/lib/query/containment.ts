import type { ValueSource } from './field-path';
import type { SqlParams } from './sql-params';

/** Up to a.b.c, and at most this many `@>` terms. */
const MAX_DEPTH = 3;
const MAX_TERMS = 16;

function isScalar(value: unknown): boolean {
  return ['string', 'number', 'boolean'].includes(typeof value);
}

/**
 * Equality to scalars as jsonb containment, which a GIN index on the
 * document serves: `{a: {b: v}}`, `{a: [{b: v}]}`, `{a: {b: [v]}}`... are
 * exactly the ways MongoDB's array rule lets `a.b` equal `v` (one array
 * level per step, as `@>` nests). Undefined when that does not apply.
 */
export function containment(
  source: ValueSource,
  values: readonly unknown[],
  params: SqlParams,
): string | undefined {
  const names = source.names;
  if (!names || names.segments.length > MAX_DEPTH) return undefined;
  if (values.length === 0 || !values.every(isScalar)) return undefined;
  if (values.length << names.segments.length > MAX_TERMS) return undefined;
  const segments = names.segments;
  let shapes: unknown[] = values.flatMap((v) => [v, [v]]);
  for (let i = segments.length - 1; i >= 0; i--) {
    const segment = segments[i] ?? '';
    shapes = shapes.map((inner) => ({ [segment]: inner }));
    // Below the top level, the object may also sit inside an array.
    if (i > 0) shapes = shapes.flatMap((object) => [object, [object]]);
  }
  const terms = shapes.map((shape) => `${names.doc} @> ${params.json(shape)}`);
  return `(${terms.join(' OR ')})`;
}
