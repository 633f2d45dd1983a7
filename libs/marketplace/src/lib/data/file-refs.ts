import { isPlainObject } from './kinvey-doc';

const FILE_TYPES = new Set(['KinveyFile', 'ServiceFile']);
/** Deep enough for the marketplace's shapes (record -> list -> item -> image). */
const MAX_DEPTH = 8;

export interface FileRef {
  readonly _type: string;
  readonly _id: string;
}

export function isFileRef(value: unknown): value is FileRef {
  return (
    isPlainObject(value) &&
    typeof value['_type'] === 'string' &&
    FILE_TYPES.has(value['_type']) &&
    typeof value['_id'] === 'string'
  );
}

/**
 * Copies `value`, replacing each file reference by what `replace` returns
 * for it (the reduced `{_type, _id}` on write, the file on read).
 */
export function mapFileRefs(
  value: unknown,
  replace: (ref: FileRef) => unknown,
  depth = 0,
): unknown {
  if (depth > MAX_DEPTH) return value;
  if (isFileRef(value)) return replace(value);
  if (Array.isArray(value))
    return value.map((v) => mapFileRefs(v, replace, depth + 1));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value))
      out[key] = mapFileRefs(v, replace, depth + 1);
    return out;
  }
  return value;
}

/** Every file id referenced anywhere in `values`. */
export function fileIdsIn(values: readonly unknown[]): string[] {
  const ids = new Set<string>();
  for (const value of values)
    mapFileRefs(value, (ref) => {
      ids.add(ref._id);
      return ref;
    });
  return [...ids];
}

/** The stored form: just `_type` and `_id`. */
export function reduceFileRefs<T>(value: T): T {
  return mapFileRefs(value, (ref) => ({ _type: ref._type, _id: ref._id })) as T;
}
