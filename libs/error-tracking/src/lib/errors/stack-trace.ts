import { isJsonObject } from '../ingestion/envelope';
import type { JsonObject } from '../ingestion/envelope';

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
}

function framesIn(container: unknown): JsonObject[] {
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

/**
 * The frames of a stored event's stack trace, oldest first (crash frame
 * last): the thrown exception's (the last value with frames), else the
 * crashed thread's or the first thread with frames.
 */
export function stackFrames(payload: JsonObject): JsonObject[] {
  const exceptions = listOf(payload['exception']);
  for (let i = exceptions.length - 1; i >= 0; i--) {
    const frames = framesIn(exceptions[i]);
    if (frames.length > 0) return frames;
  }
  const threads = listOf(payload['threads']).filter(isJsonObject);
  const crashed = threads.find(
    (t) => t['crashed'] === true && framesIn(t).length > 0,
  );
  const thread = crashed ?? threads.find((t) => framesIn(t).length > 0);
  return thread ? framesIn(thread) : [];
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
  };
}
