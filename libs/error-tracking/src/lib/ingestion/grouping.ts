import { createHash } from 'node:crypto';

import type { ExceptionValue, Frame } from './event-parts';
import {
  groupingComponentsV1,
  maskVariables,
  withFingerprint,
} from './grouping-v1';
import type { NormalizedEvent } from './normalize-event';

export { maskVariables };

/**
 * Version of the grouping algorithm, stored with each error. An event is
 * hashed by this version and by the one before it (`groupingCandidates`),
 * and joins the error either already names: changing the algorithm never
 * splits existing errors.
 */
export const GROUPING_VERSION = 2;

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

/** Generated parts of names (JVM lambdas and proxies), which vary by run. */
const GENERATED = [
  [/\$\$Lambda[$/][^.\s]*/g, '$$$$Lambda'],
  [/\$\$(\w+?)(?:BySpringCGLIB|ByCGLIB|ByGuice)\$\$\w+/g, '$$$$$1$$$$'],
  [/\$HibernateProxy\$\w+/g, '$$HibernateProxy$$'],
  [/\b0x[0-9a-f]+\b/gi, '<hex>'],
] as const;

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function withoutGenerated(name: string): string {
  // Most names have neither mark: no expression runs for them.
  if (!name.includes('$') && !name.includes('0x')) return name;
  let result = name;
  for (const [pattern, replacement] of GENERATED)
    result = result.replace(pattern, replacement);
  return result;
}

/** A native symbol without its parameter list or offset: `ns::f(int) + 12` is `ns::f`. */
function nativeFunction(name: string): string {
  let result = name.replace(/\s*\+\s*(?:0x[0-9a-f]+|\d+)$/i, '');
  if (!result.startsWith('-[') && !result.startsWith('+[')) {
    const open = result.indexOf('(');
    if (open > 0) result = result.slice(0, open);
  }
  return withoutGenerated(result.trim());
}

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

function frameComponent(frame: Frame, platform: string): string | undefined {
  const framePlatform = str(frame['platform']) || platform;
  const fn = str(frame.function);
  if (NATIVE_PLATFORMS.has(framePlatform))
    return fn ? `fn:${nativeFunction(fn)}` : undefined;
  const key = `frame:${location(frame)}:${withoutGenerated(fn)}`;
  if (!SOURCE_PLATFORMS.has(framePlatform)) return key;
  const line = contextLine(frame);
  return line === undefined ? key : `${key}:${line}`;
}

/** In-app frames (all when none is marked), each as its component. */
function frameComponents(frames: readonly Frame[], platform: string): string[] {
  const inApp = frames.filter((frame) => frame.in_app === true);
  const components: string[] = [];
  for (const frame of inApp.length > 0 ? inApp : frames) {
    const component = frameComponent(frame, platform);
    if (component !== undefined) components.push(component);
  }
  return components;
}

function exceptionComponents(
  exception: ExceptionValue,
  platform: string,
): string[] {
  const frames = frameComponents(exception.frames, platform);
  // A synthetic exception's type and value are a signal's name, the same
  // for every crash: its frames say which crash it is.
  if (exception.synthetic)
    return frames.length > 0 ? frames : [`type:${exception.type ?? ''}`];
  const type = `type:${exception.type ?? ''}`;
  if (frames.length > 0) return [type, ...frames];
  return [type, `value:${maskVariables(exception.value ?? '')}`];
}

/** The default grouping components of an event (without fingerprint). */
export function defaultComponents(event: NormalizedEvent): string[] {
  const thrown = event.exceptions.filter((e) => e.synthetic || e.type);
  if (thrown.length > 0 || (event.exceptions.length > 0 && !event.message)) {
    const chain = thrown.length > 0 ? thrown : event.exceptions;
    const components = ['exception'];
    for (const exception of chain)
      components.push(...exceptionComponents(exception, event.platform));
    return components;
  }
  if (event.messageTemplate !== null)
    return ['message', maskVariables(event.messageTemplate)];
  return ['fallback', event.transaction ?? '', maskVariables(event.title)];
}

/** The grouping components: fingerprint values, with `{{ default }}` spliced in. */
export function groupingComponents(event: NormalizedEvent): string[] {
  return withFingerprint(event, defaultComponents);
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

/** The event's grouping hashes, this version's first, then version 1's. */
export function groupingCandidates(event: NormalizedEvent): GroupingHash[] {
  return [
    {
      version: GROUPING_VERSION,
      fingerprint: hash128(
        JSON.stringify([GROUPING_VERSION, groupingComponents(event)]),
      ),
    },
    {
      version: 1,
      fingerprint: hash128(JSON.stringify([1, groupingComponentsV1(event)])),
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
