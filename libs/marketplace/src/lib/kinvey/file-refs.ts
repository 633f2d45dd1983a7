import { isPlainObject } from './kinvey-doc';

const FILE_TYPES = new Set(['KinveyFile', 'ServiceFile']);
/** Deep enough for the marketplace's shapes (record -> list -> item -> image). */
const MAX_DEPTH = 8;

export interface FileRef {
  readonly _type: string;
  readonly _id: string;
}

function isFileRef(value: unknown): value is FileRef {
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

/** Calls `visit` for each file reference in `value`, copying nothing. */
function forEachFileRef(
  value: unknown,
  visit: (ref: FileRef) => void,
  depth = 0,
): void {
  if (depth > MAX_DEPTH) return;
  if (isFileRef(value)) visit(value);
  else if (Array.isArray(value))
    for (const v of value) forEachFileRef(v, visit, depth + 1);
  else if (isPlainObject(value))
    for (const key in value) forEachFileRef(value[key], visit, depth + 1);
}

/** Every file id referenced anywhere in `values`. */
export function fileIdsIn(values: readonly unknown[]): string[] {
  const ids = new Set<string>();
  for (const value of values) forEachFileRef(value, (ref) => ids.add(ref._id));
  return [...ids];
}

/** The stored form: just `_type` and `_id`. */
export function reduceFileRefs<T>(value: T): T {
  return mapFileRefs(value, (ref) => ({ _type: ref._type, _id: ref._id })) as T;
}

/**
 * A stored reference as PostgreSQL renders `jsonb`: exactly `_id` then
 * `_type` (jsonb orders keys by length). In that rendering a `{"` or `, "`
 * starts a key outside any string (inside one, quotes are escaped), so
 * every match is a real two-key object.
 */
const STORED_REF =
  /\{"_id": ("(?:[^"\\]|\\.)*"), "_type": "(KinveyFile|ServiceFile)"\}/g;
/** What follows a key's opening quote in `"_type": "KinveyFile"`. */
const TYPE_KEY = '_type": "';

/**
 * How many `_type` keys of a file type the JSON text holds (each after `{"`
 * or `, "`, so a key and not text inside a string). Searched with
 * `indexOf` for a rare first character: a regular expression starting
 * with `{` or `,` tried a match at every one of them and was a tenth of a
 * producer query's instructions; most documents hold none.
 */
function fileTypeKeys(text: string): number {
  let count = 0;
  for (
    let at = text.indexOf(TYPE_KEY);
    at !== -1;
    at = text.indexOf(TYPE_KEY, at + TYPE_KEY.length)
  ) {
    const opensKey =
      text.charCodeAt(at - 1) === 0x22 &&
      (text.charCodeAt(at - 2) === 0x7b ||
        (text.charCodeAt(at - 2) === 0x20 && text.charCodeAt(at - 3) === 0x2c));
    const value = at + TYPE_KEY.length;
    if (
      opensKey &&
      (text.startsWith('KinveyFile"', value) ||
        text.startsWith('ServiceFile"', value))
    )
      count++;
  }
  return count;
}

/** Containers open at `index` of JSON text (strings skipped). */
function depthAt(text: string, index: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < index; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return depth;
}

/**
 * Whether the position `index` of JSON text is inside at most `max`
 * containers. Every `{` and `[` before it, strings included, bounds that
 * depth from above; counted with the engine's own search, a document with
 * few brackets (most: a product has four before its image) skips the exact
 * scan: 0.1 us instead of 0.8 us for each reference, 50 per product listing.
 */
function withinDepth(text: string, index: number, max: number): boolean {
  let brackets = 0;
  for (const open of ['{', '[']) {
    for (
      let at = text.indexOf(open);
      at !== -1 && at < index;
      at = text.indexOf(open, at + 1)
    ) {
      if (++brackets > max) return depthAt(text, index) <= max;
    }
  }
  return true;
}

export interface TextRef extends FileRef {
  readonly index: number;
  readonly length: number;
}

/**
 * The file references of a stored document's JSON text, or undefined when
 * the text holds a file type `mapFileRefs` would read differently (a
 * reference with more keys, or too deep): such a document is parsed.
 */
export function storedRefsInText(text: string): TextRef[] | undefined {
  const types = fileTypeKeys(text);
  if (types === 0) return [];
  const refs: TextRef[] = [];
  // An `exec` loop: `matchAll`'s iterator was a third of this function's
  // time (50 of these run per product listing).
  STORED_REF.lastIndex = 0;
  for (
    let match = STORED_REF.exec(text);
    match !== null;
    match = STORED_REF.exec(text)
  ) {
    const index = match.index;
    if (!withinDepth(text, index, MAX_DEPTH)) return undefined;
    refs.push({
      _id: JSON.parse(match[1] as string) as string,
      _type: match[2] as string,
      index,
      length: match[0].length,
    });
  }
  return refs.length === types ? refs : undefined;
}

/** `text` with each of its `refs` replaced by what `replace` returns (JSON text). */
export function replaceRefsInText(
  text: string,
  refs: readonly TextRef[],
  replace: (ref: TextRef) => string | undefined,
): string {
  let out = '';
  let from = 0;
  for (const ref of refs) {
    const replacement = replace(ref);
    if (replacement === undefined) continue;
    out += text.slice(from, ref.index) + replacement;
    from = ref.index + ref.length;
  }
  return from === 0 ? text : out + text.slice(from);
}
