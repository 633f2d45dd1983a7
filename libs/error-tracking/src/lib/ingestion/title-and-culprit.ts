import type { ExceptionValue, Frame } from './event-parts';
import { stacktraceCulprit } from './frame-culprit';

/**
 * What an event is called and where it happened, by Sentry's rules
 * (`ErrorEvent.compute_title`, `get_culprit`), from the parts
 * `normalizeEvent` has already read.
 */
export interface TitleSources {
  /** Oldest to newest: the last one was thrown. */
  readonly exceptions: readonly ExceptionValue[];
  /** A message event (no exception, or only a type-less one beside a message). */
  readonly messageEvent: boolean;
  /** The formatted message. */
  readonly message: string | null;
  /** A message's own (top-level) stack trace. */
  readonly messageFrames: readonly Frame[];
  /** The frames of the only thread, when the event has exactly one. */
  readonly onlyThreadFrames: readonly Frame[];
  /** A culprit the SDK sent (older SDKs did). */
  readonly sentCulprit: string | undefined;
  readonly transaction: string | null;
  readonly requestUrl: string | undefined;
  /** The event's platform, for frames that name none. */
  readonly platform: string;
}

/** Function names Sentry does not name a crash location by. */
const NAMELESS = new Set(['', '<redacted>', '<unknown>']);

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function firstLine(value: string): string {
  const newline = value.indexOf('\n');
  return newline < 0 ? value : value.slice(0, newline);
}

/** The most recent in-app frame passing `keep`, else the most recent one. */
function mostRecent(
  frames: readonly Frame[],
  keep: (frame: Frame) => boolean,
): Frame | undefined {
  let fallback: Frame | undefined;
  for (let i = frames.length - 1; i >= 0; i--) {
    const frame = frames[i] as Frame;
    if (!keep(frame)) continue;
    if (frame.in_app === true) return frame;
    fallback ??= frame;
  }
  return fallback;
}

/** The thrown exception's frames, else the last exception that has some. */
function exceptionFrames(
  exceptions: readonly ExceptionValue[],
): readonly Frame[] {
  for (let i = exceptions.length - 1; i >= 0; i--) {
    const frames = (exceptions[i] as ExceptionValue).frames;
    if (frames.length > 0) return frames;
  }
  return [];
}

/**
 * Sentry's crash location of a synthetic exception (a signal, a native
 * crash): the function of its most recent in-app frame.
 */
function crashFunction(sources: TitleSources): string | undefined {
  let frames = exceptionFrames(sources.exceptions);
  if (frames.length === 0) frames = sources.messageFrames;
  if (frames.length === 0) frames = sources.onlyThreadFrames;
  const frame = mostRecent(frames, (f) => !NAMELESS.has(str(f.function) ?? ''));
  return frame ? str(frame.function) : undefined;
}

export function eventTitle(sources: TitleSources): string {
  const thrown = sources.exceptions[sources.exceptions.length - 1];
  if (sources.messageEvent || !thrown) {
    const shown = sources.message ?? thrown?.value;
    return shown ? firstLine(shown) : '<unlabeled event>';
  }
  if (thrown.synthetic) {
    const fn = crashFunction(sources);
    if (fn) return fn;
  }
  const value = thrown.value ? firstLine(thrown.value) : '';
  const type = thrown.type ?? (value ? 'Error' : '');
  if (!type) return sources.message ?? '<unlabeled event>';
  return value ? `${type}: ${value}` : type;
}

/**
 * Sentry's `get_culprit` and `generate_culprit`: the SDK's culprit, the
 * transaction, the culprit of the last stack trace (the exceptions', else
 * a message's own; threads never), the request URL. A synthetic exception
 * gets none at all, not even the URL: `generate_culprit` returns before
 * looking at either.
 */
export function eventCulprit(sources: TitleSources): string {
  if (sources.sentCulprit) return sources.sentCulprit;
  if (sources.transaction) return sources.transaction;
  const thrown = sources.exceptions[sources.exceptions.length - 1];
  if (thrown?.synthetic) return '';
  const frames = thrown
    ? exceptionFrames(sources.exceptions)
    : sources.messageFrames;
  return (
    stacktraceCulprit(frames, sources.platform) || (sources.requestUrl ?? '')
  );
}
