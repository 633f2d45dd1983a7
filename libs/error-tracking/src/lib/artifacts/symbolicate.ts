import { exceptionList, isJsonObject } from '../sentry-event/event-json';
import type { JsonObject } from '../sentry-event/event-json';
import { keptFrames } from '../sentry-event/kept-frames';
import { normalizeDebugId } from './artifact-bundle';
import type { SourceMapLookup } from './source-map-cache';

/** Lines of source shown before and after a frame's line (as Sentry). */
const CONTEXT_LINES = 5;
/** Longest context line kept (original sources may have huge lines). */
const MAX_CONTEXT_LINE = 1_024;
const PLATFORMS_WITH_RELEASE_MAPS = new Set(['javascript', 'node']);
/** Function names that say nothing (anonymous functions). */
const USELESS_NAMES = new Set(['', '?', '<anonymous>', 'anonymous']);

/** A stored map one or more frames need. */
export type SourceMapTarget =
  | { readonly kind: 'debug-id'; readonly debugId: string }
  | {
      readonly kind: 'release';
      readonly release: string;
      readonly dist: string | null;
      /** The frame URL, then its `~/` forms (Sentry's URL matching). */
      readonly urls: readonly string[];
    };

/** Which map each frame of each exception needs (null: none). */
export interface ResolutionPlan {
  readonly exceptions: readonly JsonObject[];
  readonly frameKeys: ReadonlyArray<ReadonlyArray<string | null>>;
  readonly targets: ReadonlyMap<string, SourceMapTarget>;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The frames normalisation keeps: a map is never looked up for the others. */
function framesOf(exception: JsonObject): readonly JsonObject[] {
  const stacktrace = exception['stacktrace'];
  if (!isJsonObject(stacktrace) || !Array.isArray(stacktrace['frames']))
    return [];
  return keptFrames(stacktrace['frames'].filter(isJsonObject));
}

function frameUrl(frame: JsonObject): string | undefined {
  return str(frame['abs_path']) ?? str(frame['filename']);
}

/** A scheme first: what `new URL` needs to parse a string without a base. */
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** `http://host/static/a.js?v=1` -> itself, `~/static/a.js?v=1`, `~/static/a.js`. */
export function tildeUrls(url: string): string[] {
  // Server frames (`/srv/app/main.js`) have no scheme: skipping the parse
  // spares every such frame of every event a thrown and caught TypeError.
  if (!HAS_SCHEME.test(url)) return [url];
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [url];
  }
  return [
    ...new Set([
      url,
      `~${parsed.pathname}${parsed.search}`,
      `~${parsed.pathname}`,
    ]),
  ];
}

function debugImages(raw: JsonObject): Map<string, string> {
  const images = new Map<string, string>();
  const meta = raw['debug_meta'];
  if (!isJsonObject(meta) || !Array.isArray(meta['images'])) return images;
  for (const image of meta['images']) {
    if (!isJsonObject(image) || image['type'] !== 'sourcemap') continue;
    const codeFile = str(image['code_file']);
    const debugId = normalizeDebugId(image['debug_id']);
    if (codeFile && debugId) images.set(codeFile, debugId);
  }
  return images;
}

/**
 * Which source maps an event's exception frames need: by debug id (the
 * `sourcemap` images of `debug_meta`), else, for JavaScript events with a
 * release, by release and URL (the legacy upload). Null when none.
 */
export function planResolution(raw: JsonObject): ResolutionPlan | null {
  const exceptions = exceptionList(raw['exception']);
  if (exceptions.length === 0) return null;
  const images = debugImages(raw);
  const release = str(raw['release']);
  const dist = str(raw['dist']) ?? null;
  const byRelease =
    release !== undefined &&
    PLATFORMS_WITH_RELEASE_MAPS.has(String(raw['platform']));
  if (images.size === 0 && !byRelease) return null;

  const targets = new Map<string, SourceMapTarget>();
  let needed = false;
  const frameKeys = exceptions.map((exception) =>
    framesOf(exception).map((frame) => {
      const url = frameUrl(frame);
      if (!url || typeof frame['lineno'] !== 'number') return null;
      const debugId = images.get(url);
      let key: string;
      if (debugId) {
        key = `d:${debugId}`;
        if (!targets.has(key)) targets.set(key, { kind: 'debug-id', debugId });
      } else if (byRelease) {
        key = `r:${release}\n${dist ?? ''}\n${url}`;
        if (!targets.has(key))
          targets.set(key, {
            kind: 'release',
            release: release as string,
            dist,
            urls: tildeUrls(url),
          });
      } else return null;
      needed = true;
      return key;
    }),
  );
  return needed ? { exceptions, frameKeys, targets } : null;
}

/** `../src/validate.js` -> `src/validate.js`; `webpack://app/./x.js` -> `x.js`. */
export function displayFilename(source: string): string {
  const withoutScheme = source.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*\//i, '');
  const relative = withoutScheme.replace(/^(?:\.\.?\/)+/, '');
  return relative || source;
}

function absoluteSource(source: string, mapRef: string, url: string): string {
  try {
    return new URL(source, new URL(mapRef, url)).href;
  } catch {
    return source;
  }
}

function contextLine(line: string | undefined): string {
  return (line ?? '').slice(0, MAX_CONTEXT_LINE);
}

interface Resolved {
  readonly frame: JsonObject;
  /** The original name at the frame's position: the function it calls. */
  readonly calleeName: string | null;
}

function resolveFrame(
  frame: JsonObject,
  lookup: SourceMapLookup & { kind: 'map' },
  resolvedWith: SourceMapTarget['kind'],
  callerName: string | null | undefined,
  errors: JsonObject[],
): Resolved | null {
  const url = frameUrl(frame) as string;
  const lineno = frame['lineno'] as number;
  const colno = typeof frame['colno'] === 'number' ? frame['colno'] : 1;
  const position = lookup.map.originalPosition(lineno, Math.max(0, colno - 1));
  if (!position) {
    errors.push({
      type: 'js_invalid_sourcemap_location',
      url,
      row: lineno,
      column: colno,
    });
    return null;
  }
  const rawName = str(frame['function']);
  const fn =
    callerName ||
    (rawName === undefined || USELESS_NAMES.has(rawName) ? null : rawName);
  const resolved: JsonObject = {
    ...frame,
    filename: displayFilename(position.source),
    abs_path: absoluteSource(position.source, lookup.map.mapRef, url),
    lineno: position.line,
    colno: position.column + 1,
    in_app: !/(^|\/)node_modules\//.test(position.source),
    data: {
      ...(isJsonObject(frame['data']) ? frame['data'] : {}),
      symbolicated: true,
      resolved_with: resolvedWith,
      sourcemap: absoluteSource(lookup.map.mapRef, url, url),
    },
  };
  if (fn === null) delete resolved['function'];
  else resolved['function'] = fn;
  const lines = lookup.map.sourceLines(position.source);
  const index = position.line - 1;
  if (lines && index < lines.length) {
    resolved['context_line'] = contextLine(lines[index]);
    resolved['pre_context'] = lines
      .slice(Math.max(0, index - CONTEXT_LINES), index)
      .map(contextLine);
    resolved['post_context'] = lines
      .slice(index + 1, index + 1 + CONTEXT_LINES)
      .map(contextLine);
  } else {
    delete resolved['context_line'];
    delete resolved['pre_context'];
    delete resolved['post_context'];
  }
  return { frame: resolved, calleeName: position.name };
}

function recordOnce(errors: JsonObject[], error: JsonObject): void {
  if (
    !errors.some(
      (e) => e['type'] === error['type'] && e['url'] === error['url'],
    )
  )
    errors.push(error);
}

/**
 * The event with its exception frames replaced by their original
 * positions (file, line, column, function, context from `sourcesContent`),
 * each exception's minified frames kept as `raw_stacktrace`, and what could
 * not be resolved listed in `errors` (Sentry's event errors). A frame's
 * function is the original name at its caller's position (the map's name
 * at a call site names the callee), as Sentry does without scope data.
 */
export function applyResolution(
  raw: JsonObject,
  plan: ResolutionPlan,
  lookups: ReadonlyMap<string, SourceMapLookup>,
): JsonObject {
  const errors: JsonObject[] = Array.isArray(raw['errors'])
    ? raw['errors'].filter(isJsonObject)
    : [];
  const values = plan.exceptions.map((exception, e) => {
    const frames = framesOf(exception);
    const keys = plan.frameKeys[e] ?? [];
    let callerName: string | null | undefined;
    let changed = false;
    const resolvedFrames = frames.map((frame, f) => {
      const key = keys[f];
      const lookup = key ? lookups.get(key) : undefined;
      const target = key ? plan.targets.get(key) : undefined;
      const url = frameUrl(frame);
      let out = frame;
      let calleeName: string | null | undefined;
      if (lookup?.kind === 'map' && target) {
        const resolved = resolveFrame(
          frame,
          lookup,
          target.kind,
          callerName,
          errors,
        );
        if (resolved) {
          out = resolved.frame;
          calleeName = resolved.calleeName;
          changed = true;
        }
      } else if (lookup?.kind === 'broken')
        recordOnce(errors, {
          type: 'js_invalid_source',
          url,
          reason: lookup.reason,
          ...(target?.kind === 'debug-id' ? { debug_id: target.debugId } : {}),
        });
      else if (lookup?.kind === 'missing')
        recordOnce(errors, {
          type: 'js_no_source',
          url,
          ...(target?.kind === 'debug-id' ? { debug_id: target.debugId } : {}),
        });
      callerName = calleeName;
      return out;
    });
    if (!changed) return exception;
    return {
      ...exception,
      stacktrace: {
        ...(exception['stacktrace'] as JsonObject),
        frames: resolvedFrames,
      },
      raw_stacktrace: { frames },
    };
  });
  const result: JsonObject = { ...raw, exception: { values } };
  if (errors.length > 0) result['errors'] = errors;
  return result;
}
