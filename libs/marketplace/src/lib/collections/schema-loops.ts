import { isPlainObject } from '../kinvey/kinvey-doc';

/**
 * Keywords that apply a subschema to the same place of the record: a
 * cycle made only of these never moves into the record, so Ajv's
 * validator recurses until the stack overflows, whatever the record.
 */
const IN_PLACE_ONE = ['$ref', '$dynamicRef', 'not', 'if', 'then', 'else'];
const IN_PLACE_MANY = ['allOf', 'anyOf', 'oneOf'];
const IN_PLACE_MAP = ['dependentSchemas'];

/** A key as one part of a JSON pointer. */
function part(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Every subschema by its JSON pointer, and every `$anchor`; `nested`
 * when a subschema has an `$id` of its own (its `#...` references are
 * then relative to it: left to the validator's guard).
 */
function index(schema: unknown): {
  byPointer: Map<string, unknown>;
  anchors: Map<string, string>;
  nested: boolean;
} {
  const byPointer = new Map<string, unknown>();
  const anchors = new Map<string, string>();
  let nested = false;
  const walk = (node: unknown, pointer: string): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, `${pointer}/${i}`));
      return;
    }
    if (!isPlainObject(node)) return;
    byPointer.set(pointer, node);
    if (pointer !== '' && node['$id'] !== undefined) nested = true;
    for (const key of ['$anchor', '$dynamicAnchor'])
      if (typeof node[key] === 'string') anchors.set(node[key], pointer);
    for (const [key, value] of Object.entries(node))
      walk(value, `${pointer}/${part(key)}`);
  };
  walk(schema, '');
  return { byPointer, anchors, nested };
}

/** The pointer a local reference (`#`, `#/a/b`, `#anchor`) names. */
function target(
  ref: string,
  anchors: ReadonlyMap<string, string>,
): string | undefined {
  if (!ref.startsWith('#')) return undefined;
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  // A pointer fragment is already escaped as `index` writes pointers.
  if (fragment === '' || fragment.startsWith('/')) return fragment;
  return anchors.get(fragment);
}

/**
 * Where a schema's local references loop back without moving into the
 * record (`{"$ref": "#"}`), as `a -> b -> a` pointers; undefined when
 * none does. References to other documents are Ajv's to resolve.
 */
export function inPlaceLoop(schema: unknown): string | undefined {
  const { byPointer, anchors, nested } = index(schema);
  const next = (pointer: string): string[] => {
    const node = byPointer.get(pointer);
    if (!isPlainObject(node)) return [];
    const out: string[] = [];
    for (const key of IN_PLACE_ONE) {
      const value = node[key];
      if (key === '$ref' || key === '$dynamicRef') {
        const to =
          typeof value === 'string' && !nested
            ? target(value, anchors)
            : undefined;
        if (to !== undefined && byPointer.has(to)) out.push(to);
      } else if (isPlainObject(value)) out.push(`${pointer}/${key}`);
    }
    for (const key of IN_PLACE_MANY)
      if (Array.isArray(node[key]))
        (node[key] as unknown[]).forEach((_, i) =>
          out.push(`${pointer}/${key}/${i}`),
        );
    for (const key of IN_PLACE_MAP)
      if (isPlainObject(node[key]))
        for (const name of Object.keys(node[key] as object))
          out.push(`${pointer}/${key}/${part(name)}`);
    return out;
  };
  const done = new Set<string>();
  const path: string[] = [];
  const onPath = new Set<string>();
  const visit = (pointer: string): string | undefined => {
    if (onPath.has(pointer))
      return [...path.slice(path.indexOf(pointer)), pointer]
        .map((p) => `#${p}`)
        .join(' -> ');
    if (done.has(pointer)) return undefined;
    path.push(pointer);
    onPath.add(pointer);
    for (const to of next(pointer)) {
      const loop = visit(to);
      if (loop) return loop;
    }
    path.pop();
    onPath.delete(pointer);
    done.add(pointer);
    return undefined;
  };
  for (const pointer of byPointer.keys()) {
    const loop = visit(pointer);
    if (loop) return loop;
  }
  return undefined;
}
