import type { Frame } from './event-parts';

/** Platforms whose culprit is the bare function (`get_frame_culprit`). */
const FUNCTION_ONLY = new Set(['native', 'cocoa', 'objc']);
/** Platforms whose culprit is `function(location)`. */
const JAVASCRIPT = new Set(['javascript', 'node']);
/** Schemes Relay reads a URL path from (`is_url` in its stack-trace normalisation). */
const URL_SCHEMES = ['file:', 'http:', 'https:', 'applewebdata:'];

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The path of a URL, when it is one with a path beyond `/`. */
function urlPath(value: string): string | undefined {
  if (!URL_SCHEMES.some((scheme) => value.startsWith(scheme))) return undefined;
  try {
    const path = new URL(value).pathname;
    return path !== '' && path !== '/' ? path : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The frame's filename as Relay normalises it (`process_non_raw_frame`):
 * a filename sent beside an `abs_path` stays; otherwise it is the absolute
 * path (the filename when that is all there is), a URL reduced to its path,
 * so a browser frame's `https://shop.example/vendor.js` is `/vendor.js`.
 */
export function normalizedFilename(frame: Frame): string | undefined {
  const absPath = str(frame.abs_path);
  const filename = str(frame.filename);
  if (absPath && filename) return filename;
  const source = absPath ?? filename;
  return source === undefined ? undefined : (urlPath(source) ?? source);
}

/**
 * Sentry's `get_frame_culprit`: the function alone for native, Cocoa and
 * Objective-C frames; `function(location)` for JavaScript and Node;
 * otherwise `location in function`, where location is the module, else the
 * filename. Empty without a location (the caller then looks further). The
 * frame's own platform wins over the event's.
 */
export function frameCulprit(frame: Frame, eventPlatform: string): string {
  const platform = str(frame['platform']) ?? eventPlatform;
  const fn = str(frame.function) ?? '?';
  if (FUNCTION_ONLY.has(platform)) return fn;
  const location = str(frame.module) ?? normalizedFilename(frame);
  if (!location) return '';
  return JAVASCRIPT.has(platform)
    ? `${fn}(${location})`
    : `${location} in ${fn}`;
}

/**
 * Sentry's `get_stacktrace_culprit`: the most recent in-app frame that
 * names a location, else the most recent frame's culprit (possibly empty).
 */
export function stacktraceCulprit(
  frames: readonly Frame[],
  eventPlatform: string,
): string {
  let fallback: string | undefined;
  for (let i = frames.length - 1; i >= 0; i--) {
    const frame = frames[i] as Frame;
    if (frame.in_app === true) {
      const culprit = frameCulprit(frame, eventPlatform);
      if (culprit) return culprit;
    } else fallback ??= frameCulprit(frame, eventPlatform);
  }
  return fallback ?? '';
}
