import type { Frame, NormalizedEvent } from './normalize-event';

/**
 * Grouping version 1, frozen: errors stored with it keep collecting their
 * events, which `groupingCandidates` also hashes this way. Never change it.
 */

const UUID =
  /\b[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\b/gi;
const HEX_PREFIXED = /\b0x[0-9a-f]+\b/gi;
const HEX_RUN = /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi;
const NUMBER = /\d+(?:\.\d+)?/g;
const DEFAULT_PLACEHOLDER = /^\{\{\s*default\s*\}\}$/i;

/** Masks what varies between occurrences: UUIDs, hex, numbers. */
export function maskVariables(value: string): string {
  return value
    .replace(UUID, '<uuid>')
    .replace(HEX_PREFIXED, '<hex>')
    .replace(HEX_RUN, '<hex>')
    .replace(NUMBER, '<num>');
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Module or filename plus function: no line numbers, so edits above do not split. */
function frameKey(frame: Frame): string {
  const where = str(frame.module) || str(frame.filename) || str(frame.abs_path);
  return `${where}:${str(frame.function)}`;
}

function groupingFrames(frames: readonly Frame[]): Frame[] {
  const inApp = frames.filter((frame) => frame.in_app === true);
  return inApp.length > 0 ? inApp : [...frames];
}

/** Version 1's default grouping components (without fingerprint). */
function defaultComponents(event: NormalizedEvent): string[] {
  const exceptions = event.exceptions.filter((e) => !e.synthetic && e.type);
  if (
    exceptions.length > 0 ||
    (event.exceptions.length > 0 && !event.message)
  ) {
    const chain = exceptions.length > 0 ? exceptions : event.exceptions;
    const components: string[] = ['exception'];
    for (const exception of chain) {
      components.push(`type:${exception.type ?? ''}`);
      if (exception.frames.length > 0) {
        for (const frame of groupingFrames(exception.frames))
          components.push(`frame:${frameKey(frame)}`);
      } else {
        components.push(`value:${maskVariables(exception.value ?? '')}`);
      }
    }
    return components;
  }
  if (event.messageTemplate !== null)
    return ['message', maskVariables(event.messageTemplate)];
  return ['fallback', event.transaction ?? '', maskVariables(event.title)];
}

/**
 * The grouping components of any version: the event's fingerprint values
 * with the version's default components spliced in for `{{ default }}`,
 * or the default components alone.
 */
export function withFingerprint(
  event: NormalizedEvent,
  defaults: (event: NormalizedEvent) => string[],
): string[] {
  if (!event.fingerprint) return defaults(event);
  const components: string[] = ['fingerprint'];
  for (const part of event.fingerprint) {
    if (DEFAULT_PLACEHOLDER.test(part.trim()))
      components.push('{default}', ...defaults(event));
    else components.push(`value:${part}`);
  }
  return components;
}

/** Version 1's components. */
export function groupingComponentsV1(event: NormalizedEvent): string[] {
  return withFingerprint(event, defaultComponents);
}
