import { isJsonObject } from '../sentry-event/event-json';
import type { JsonObject } from '../sentry-event/event-json';

/** One frame as GitLab's stack trace endpoint shows it. */
export interface StackTraceEntry {
  filename: string | null;
  abs_path: string | null;
  function: string | null;
  lineNo: number | null;
  colNo: number;
  context: Array<[number, string]>;
  in_app: boolean;
  module: string | null;
  /** Where a source-mapped frame was in the minified file; null otherwise. */
  source_map: MinifiedPosition | null;
}

/** The minified frame a source-mapped frame was resolved from. */
export interface MinifiedPosition {
  filename: string | null;
  function: string | null;
  lineNo: number | null;
  colNo: number | null;
}

/** The frames of a container's `stacktrace` (an exception, a thread, an event). */
export function framesIn(container: unknown): JsonObject[] {
  if (!isJsonObject(container)) return [];
  const stacktrace = container['stacktrace'];
  if (!isJsonObject(stacktrace) || !Array.isArray(stacktrace['frames']))
    return [];
  return stacktrace['frames'].filter(isJsonObject);
}

function listOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (isJsonObject(value) && Array.isArray(value['values']))
    return value['values'];
  return [];
}

function rawFramesIn(container: unknown): JsonObject[] {
  if (!isJsonObject(container)) return [];
  return framesIn({ stacktrace: container['raw_stacktrace'] });
}

/** Whether source maps resolved this frame (its `data.symbolicated`). */
export function isSourceMapped(frame: JsonObject): boolean {
  const data = frame['data'];
  return isJsonObject(data) && data['symbolicated'] === true;
}

/**
 * An exception's frames, oldest first; a source-mapped frame carries its
 * minified original as `raw` (from `raw_stacktrace`).
 */
export function exceptionFrames(exception: unknown): JsonObject[] {
  const frames = framesIn(exception);
  const raw = rawFramesIn(exception);
  if (raw.length !== frames.length) return frames;
  return frames.map((frame, f) =>
    isSourceMapped(frame) ? { ...frame, raw: raw[f] } : frame,
  );
}

/** A stored event's stack trace, and whether its last frame crashed. */
export interface EventStackTrace {
  /** Oldest first, the most recent frame last. */
  readonly frames: JsonObject[];
  /**
   * Whether the last frame is a thrown exception's crash frame: a
   * message's stack trace or a thread snapshot only says where it was.
   */
  readonly crashed: boolean;
}

/**
 * The frames of a stored event's stack trace: the thrown exception's (the
 * last value with frames), else the event's own (a message's), else the
 * crashed thread's or the first thread with frames. A source-mapped frame
 * carries its minified original as `raw` (from `raw_stacktrace`).
 */
export function eventStackTrace(payload: JsonObject): EventStackTrace {
  const exceptions = listOf(payload['exception']);
  for (let i = exceptions.length - 1; i >= 0; i--) {
    const exception = exceptions[i];
    const frames = framesIn(exception);
    if (frames.length === 0) continue;
    // A type-less exception is a message's attached stack, not a throw.
    const crashed =
      isJsonObject(exception) &&
      typeof exception['type'] === 'string' &&
      exception['type'] !== '';
    return { frames: exceptionFrames(exception), crashed };
  }
  // A message's stack trace (an event without exception keeps it there).
  const own = framesIn(payload);
  if (own.length > 0) return { frames: own, crashed: false };
  const threads = listOf(payload['threads']).filter(isJsonObject);
  const crashedThread = threads.find(
    (t) => t['crashed'] === true && framesIn(t).length > 0,
  );
  const thread = crashedThread ?? threads.find((t) => framesIn(t).length > 0);
  return { frames: thread ? framesIn(thread) : [], crashed: false };
}

/** The frames of `eventStackTrace`, oldest first. */
export function stackFrames(payload: JsonObject): JsonObject[] {
  return eventStackTrace(payload).frames;
}

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function int(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value)
    ? Math.trunc(value)
    : null;
}

function lines(value: unknown): string[] {
  return Array.isArray(value)
    ? value.map((line) => (typeof line === 'string' ? line : ''))
    : [];
}

/** `[line_number, source_line]` pairs around the frame's line. */
export function frameContext(frame: JsonObject): Array<[number, string]> {
  const lineNo = int(frame['lineno']);
  const contextLine = str(frame['context_line']);
  if (lineNo === null || contextLine === null) return [];
  const pre = lines(frame['pre_context']);
  const post = lines(frame['post_context']);
  return [
    ...pre.map((line, i): [number, string] => [lineNo - pre.length + i, line]),
    [lineNo, contextLine],
    ...post.map((line, i): [number, string] => [lineNo + 1 + i, line]),
  ];
}

export function toStackTraceEntry(frame: JsonObject): StackTraceEntry {
  return {
    filename: str(frame['filename']),
    abs_path: str(frame['abs_path']),
    function: str(frame['function']),
    lineNo: int(frame['lineno']),
    colNo: int(frame['colno']) ?? 0,
    context: frameContext(frame),
    in_app: frame['in_app'] === true,
    module: str(frame['module']),
    source_map: minifiedPosition(frame['raw']),
  };
}

function minifiedPosition(raw: unknown): MinifiedPosition | null {
  if (!isJsonObject(raw)) return null;
  return {
    filename: str(raw['abs_path']) ?? str(raw['filename']),
    function: str(raw['function']),
    lineNo: int(raw['lineno']),
    colNo: int(raw['colno']),
  };
}
