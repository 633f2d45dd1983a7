import { framesIn as framesOf } from '../errors/stack-trace';
import { exceptionList } from '../sentry-event/event-json';
import type { JsonObject } from '../sentry-event/event-json';

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** How the collector once wrote a frame: `function (module or filename)`. */
function labelOf(frame: JsonObject): string {
  const fn = text(frame['function']) ?? '?';
  const where =
    text(frame['module']) ?? text(frame['filename']) ?? text(frame['abs_path']);
  return where ? `${fn} (${where})` : fn;
}

/**
 * The culprit the collector derived first (the crash frame of the last
 * exception with frames, else of the crashed or first thread with frames,
 * else the transaction).
 */
function firstRulesCulprit(payload: JsonObject): string {
  let frames: JsonObject[] = [];
  const exceptions = exceptionList(payload['exception']);
  for (let i = exceptions.length - 1; i >= 0 && frames.length === 0; i--)
    frames = framesOf(exceptions[i]);
  if (frames.length === 0) {
    const threads = exceptionList(payload['threads']);
    const thread =
      threads.find((t) => t['crashed'] === true && framesOf(t).length > 0) ??
      threads.find((t) => framesOf(t).length > 0);
    frames = framesOf(thread);
  }
  const frame = frames[frames.length - 1];
  if (!frame) return text(payload['transaction']) ?? '';
  return labelOf(frame);
}

/**
 * Whether a stored culprit is one the collector derived by earlier rules:
 * the first ones, or a frame of the event's stack traces written
 * `function (location)` for every platform (before Sentry's
 * `get_culprit_string`). Such a culprit is derived again; any other was the
 * SDK's own (raven-era SDKs wrote `module in function`), and is kept.
 */
export function isLegacyCulprit(
  payload: JsonObject,
  culprit: unknown,
): boolean {
  if (typeof culprit !== 'string') return false;
  if (culprit === firstRulesCulprit(payload)) return true;
  const frames = [
    ...exceptionList(payload['exception']).flatMap((e) => framesOf(e)),
    ...framesOf(payload),
  ];
  return frames.some((frame) => labelOf(frame) === culprit);
}
