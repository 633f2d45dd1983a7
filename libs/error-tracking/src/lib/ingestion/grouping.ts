import { createHash } from 'node:crypto';

import type { ExceptionValue, Frame } from './event-parts';
import {
  groupingComponentsV1,
  maskVariables,
  withFingerprint,
} from './grouping-v1';
import type { GroupingRules } from './grouping-rules';
import { withoutGenerated } from './grouping-rules';
import { GROUPING_V2 } from './grouping-v2';
import { nativeFunctionName, nativeInApp } from './native-frames';
import type { NormalizedEvent } from './normalize-event';
import { parameterize } from './parameterize';

export { maskVariables };

/** Platforms whose SDKs send source lines worth grouping by. */
const SOURCE_PLATFORMS = new Set([
  'python',
  'javascript',
  'node',
  'php',
  'ruby',
]);
/** Platforms whose frames are compiled code: grouped by function alone. */
const NATIVE_PLATFORMS = new Set(['native', 'cocoa', 'objc', 'c']);
/** Sentry ignores source lines longer than this (minified code). */
const CONTEXT_LINE_MAX = 120;
const WHITESPACE_RUN = /\s+/g;
const QUERY_OR_FRAGMENT = /[?#]/;

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * Sentry's message grouping (`normalize_message_for_grouping`): its first
 * two non-empty lines (`...` when more was cut), parameterised.
 */
function messageKey(message: string): string {
  const lines = message.split(/\r\n|\r|\n/).filter((l) => l.trim() !== '');
  const trimmed = lines.slice(0, 2).join('\n');
  return parameterize(trimmed === message ? message : `${trimmed}...`);
}

/**
 * Version 3, Sentry's rules: values and messages parameterised on whole
 * tokens; native functions without parameters, templates, return types or
 * offsets; native frames in system libraries never the application's.
 */
const GROUPING_V3: GroupingRules = {
  version: 3,
  maskValue: parameterize,
  maskMessage: messageKey,
  nativeFunction: (name) => withoutGenerated(nativeFunctionName(name)),
  inApp: (frames, platforms, event) => {
    const isNative = platforms.map((p) => NATIVE_PLATFORMS.has(p));
    const nativeMarks = nativeInApp(
      frames.filter((_, i) => isNative[i]),
      event.payload,
    );
    let next = 0;
    return frames.map((frame, i) =>
      isNative[i] ? (nativeMarks[next++] as boolean) : frame.in_app === true,
    );
  },
};

/**
 * Version of the grouping algorithm, stored with each error. An event is
 * hashed by this version and by every one before it (`groupingCandidates`),
 * and joins the error any of them names: changing the algorithm never
 * splits existing errors.
 */
export const GROUPING_VERSION = GROUPING_V3.version;

/** A source line with runs of whitespace collapsed; none when it is too long. */
function contextLine(frame: Frame): string | undefined {
  const sent = str(frame['context_line']);
  // Sentry measures the line as sent: a long one is minified code.
  if (sent.length > CONTEXT_LINE_MAX) return undefined;
  const line = sent.replace(WHITESPACE_RUN, ' ').trim();
  return line !== '' ? line : undefined;
}

/** Module, else filename without query or fragment (cache busters vary). */
function location(frame: Frame): string {
  const module = str(frame.module);
  if (module) return withoutGenerated(module);
  const file = str(frame.filename) || str(frame.abs_path);
  const end = file.search(QUERY_OR_FRAGMENT);
  return end < 0 ? file : file.slice(0, end);
}

function framePlatform(frame: Frame, platform: string): string {
  return str(frame['platform']) || platform;
}

function frameComponent(
  frame: Frame,
  platform: string,
  rules: GroupingRules,
): string | undefined {
  const fn = str(frame.function);
  if (NATIVE_PLATFORMS.has(platform))
    return fn ? `fn:${rules.nativeFunction(fn)}` : undefined;
  const key = `frame:${location(frame)}:${withoutGenerated(fn)}`;
  if (!SOURCE_PLATFORMS.has(platform)) return key;
  const line = contextLine(frame);
  return line === undefined ? key : `${key}:${line}`;
}

/** In-app frames (all when none is), each as its component. */
function frameComponents(
  frames: readonly Frame[],
  event: NormalizedEvent,
  rules: GroupingRules,
): string[] {
  const platforms = frames.map((frame) => framePlatform(frame, event.platform));
  const marks = rules.inApp(frames, platforms, event);
  const anyInApp = marks.includes(true);
  const components: string[] = [];
  frames.forEach((frame, i) => {
    if (anyInApp && !marks[i]) return;
    const component = frameComponent(frame, platforms[i] as string, rules);
    if (component !== undefined) components.push(component);
  });
  return components;
}

function exceptionComponents(
  exception: ExceptionValue,
  event: NormalizedEvent,
  rules: GroupingRules,
): string[] {
  const frames = frameComponents(exception.frames, event, rules);
  // A synthetic exception's type and value are a signal's name, the same
  // for every crash: its frames say which crash it is.
  if (exception.synthetic)
    return frames.length > 0 ? frames : [`type:${exception.type ?? ''}`];
  const type = `type:${exception.type ?? ''}`;
  if (frames.length > 0) return [type, ...frames];
  return [type, `value:${rules.maskValue(exception.value ?? '')}`];
}

/** The default grouping components of an event (without fingerprint). */
function defaultComponents(
  event: NormalizedEvent,
  rules: GroupingRules,
): string[] {
  const thrown = event.exceptions.filter((e) => e.synthetic || e.type);
  if (thrown.length > 0 || (event.exceptions.length > 0 && !event.message)) {
    const chain = thrown.length > 0 ? thrown : event.exceptions;
    const components = ['exception'];
    for (const exception of chain)
      components.push(...exceptionComponents(exception, event, rules));
    return components;
  }
  if (event.messageTemplate !== null)
    return ['message', rules.maskMessage(event.messageTemplate)];
  return ['fallback', event.transaction ?? '', rules.maskValue(event.title)];
}

/** The grouping components: fingerprint values, with `{{ default }}` spliced in. */
export function groupingComponents(
  event: NormalizedEvent,
  rules: GroupingRules = GROUPING_V3,
): string[] {
  return withFingerprint(event, (e) => defaultComponents(e, rules));
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

function hashOf(version: number, components: string[]): GroupingHash {
  return {
    version,
    fingerprint: hash128(JSON.stringify([version, components])),
  };
}

/** The event's grouping hashes, this version's first, then 2's, then 1's. */
export function groupingCandidates(event: NormalizedEvent): GroupingHash[] {
  return [
    hashOf(GROUPING_V3.version, groupingComponents(event, GROUPING_V3)),
    hashOf(GROUPING_V2.version, groupingComponents(event, GROUPING_V2)),
    hashOf(1, groupingComponentsV1(event)),
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
