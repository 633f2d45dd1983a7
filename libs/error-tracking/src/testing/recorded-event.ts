import { fixtureEvent, loadSentryFixtures } from '@quitanda/testing';

import { exceptionList } from '../lib/sentry-event/event-json';
import type { JsonObject } from '../lib/sentry-event/event-json';

type Frames = (frames: JsonObject[]) => JsonObject[];

/**
 * The event a real SDK sent (`<sdk>-<version>/NNN-<kind>.json` of the Sentry
 * fixtures), with `fields` set and each exception's frames passed through
 * `frames`: a variant of a recorded payload, not a hand-written one.
 */
export function recordedEvent(
  file: string,
  fields: JsonObject = {},
  frames?: Frames,
): JsonObject {
  const fixture = loadSentryFixtures().find((f) => f.file === file);
  if (!fixture) throw new Error(`no Sentry fixture ${file}`);
  const event: JsonObject = { ...fixtureEvent(fixture), ...fields };
  if (!frames) return event;
  const values = exceptionList(event['exception']).map((value) => {
    const stacktrace = value['stacktrace'] as { frames: JsonObject[] };
    return { ...value, stacktrace: { frames: frames(stacktrace.frames) } };
  });
  return { ...event, exception: { values } };
}
