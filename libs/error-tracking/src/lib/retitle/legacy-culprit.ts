import { framesIn as framesOf } from '../errors/stack-trace';
import { exceptionList } from '../sentry-event/event-json';
import type { JsonObject } from '../sentry-event/event-json';

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The culprit the collector derived before Sentry's rules (the crash frame
 * of the last exception with frames, else of the crashed or first thread
 * with frames, else the transaction). A stored culprit equal to it was
 * derived, so it is derived again; any other was the SDK's own, and kept.
 */
export function legacyCulprit(payload: JsonObject): string {
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
  const fn = text(frame['function']) ?? '?';
  const where =
    text(frame['module']) ?? text(frame['filename']) ?? text(frame['abs_path']);
  return where ? `${fn} (${where})` : fn;
}
