import { createHash } from 'node:crypto';

import type { Frame, NormalizedEvent } from './normalize-event';

/**
 * Version of the grouping algorithm, stored with each error. A future
 * version computes its own hash and also the hashes of the versions before
 * it (`groupingCandidates`), and an event joins the error any of them
 * already names: changing the algorithm never splits existing errors.
 */
export const GROUPING_VERSION = 1;

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

/** The default grouping components of an event (without fingerprint). */
export function defaultComponents(event: NormalizedEvent): string[] {
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

/** The grouping components: fingerprint values, with `{{ default }}` spliced in. */
export function groupingComponents(event: NormalizedEvent): string[] {
  if (!event.fingerprint) return defaultComponents(event);
  const components: string[] = ['fingerprint'];
  for (const part of event.fingerprint) {
    if (DEFAULT_PLACEHOLDER.test(part.trim()))
      components.push('{default}', ...defaultComponents(event));
    else components.push(`value:${part}`);
  }
  return components;
}

/** A 128-bit hash formatted as a UUID (compact, indexable). */
export function hash128(value: string): string {
  const hex = createHash('sha256').update(value, 'utf8').digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export interface GroupingHash {
  readonly version: number;
  readonly fingerprint: string;
}

/** The event's grouping hashes, newest algorithm first. */
export function groupingCandidates(event: NormalizedEvent): GroupingHash[] {
  return [
    {
      version: GROUPING_VERSION,
      fingerprint: hash128(
        JSON.stringify([GROUPING_VERSION, groupingComponents(event)]),
      ),
    },
  ];
}

/** Who an event happened to: `id`, else email, username, IP address. */
export function userKeyOf(event: NormalizedEvent): string | null {
  const user = event.user;
  if (!user) return null;
  for (const field of ['id', 'email', 'username', 'ip_address'] as const) {
    const value = user[field];
    if (value) return hash128(`${field}:${value}`);
  }
  return null;
}
