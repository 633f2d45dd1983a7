import { randomUUID } from 'node:crypto';

import { EVENT_MAX_FUTURE_MS } from '../common/error-tracking.constants';
import { exceptionList, isJsonObject } from '../sentry-event/event-json';
import type { JsonObject } from '../sentry-event/event-json';
import { keptFrames } from '../sentry-event/kept-frames';
import {
  CULPRIT_MAX,
  MESSAGE_MAX,
  SHORT_FIELD_MAX,
  TAG_MAX,
  TITLE_MAX,
} from './limits';
import { renameLegacyKeys } from './legacy-keys';
import { formatMessage } from './message-format';
import { exactIntegerText } from './payload-json';
import type { ExceptionValue, Frame } from './event-parts';
import { eventCulprit, eventTitle } from './title-and-culprit';
import type { TitleSources } from './title-and-culprit';

/** How far in the past (Relay's `max_secs_in_past`: 30 days). */
const MAX_PAST_MS = 30 * 86_400_000;

const LEVELS = new Set(['fatal', 'error', 'warning', 'info', 'debug']);
const LEVEL_ALIASES: Record<string, string> = {
  warn: 'warning',
  critical: 'fatal',
  log: 'info',
  sample: 'info',
};
/** Python's logging levels, which its SDK may send as numbers. */
const PYTHON_LEVELS: Record<string, string> = {
  '10': 'debug',
  '20': 'info',
  '30': 'warning',
  '40': 'error',
  '50': 'fatal',
};
/** Sentry's platform names (Relay's `VALID_PLATFORMS`); others are `other`. */
const PLATFORMS = new Set([
  'as3',
  'c',
  'cfml',
  'cocoa',
  'csharp',
  'elixir',
  'go',
  'groovy',
  'haskell',
  'java',
  'javascript',
  'native',
  'node',
  'objc',
  'other',
  'perl',
  'php',
  'python',
  'ruby',
]);

export interface NormalizeContext {
  readonly receivedAt: Date;
  /** The envelope header's `event_id`, which wins over the payload's. */
  readonly envelopeEventId?: unknown;
  /** The client address, for `{{auto}}` user IPs. */
  readonly clientIp?: string;
}

export type { ExceptionValue, Frame } from './event-parts';

export interface EventUser {
  readonly id?: string;
  readonly email?: string;
  readonly username?: string;
  readonly ip_address?: string;
}

/** An event as the collector understands it, plus its stored form. */
export interface NormalizedEvent {
  /** 32 lowercase hex. */
  readonly eventId: string;
  readonly timestamp: Date;
  readonly receivedAt: Date;
  readonly level: string;
  readonly platform: string;
  readonly release: string | null;
  readonly environment: string;
  readonly logger: string | null;
  readonly transaction: string | null;
  readonly user: EventUser | null;
  readonly tags: Readonly<Record<string, string>>;
  /** Oldest to newest: the last one was thrown. */
  readonly exceptions: readonly ExceptionValue[];
  /** Formatted message (`logentry.formatted`, the template filled, or `message`). */
  readonly message: string | null;
  /** `logentry.message` when parameters were given separately, else the message. */
  readonly messageTemplate: string | null;
  readonly fingerprint: readonly string[] | null;
  /** The top-level stack trace of an event without exception (a message's). */
  readonly messageFrames: readonly Frame[];
  readonly title: string;
  readonly type: string;
  /** The error's message: the exception value, or the message. */
  readonly value: string;
  readonly culprit: string;
  /** The whole normalised payload, as stored. */
  readonly payload: JsonObject;
}

export function truncate(value: string, max: number): string {
  if (value.length <= max) return value;
  // Do not cut a surrogate pair in half.
  let end = max;
  const code = value.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return value.slice(0, end);
}

function shortString(value: unknown, max = SHORT_FIELD_MAX): string | null {
  const exact = exactIntegerText(value);
  if (exact !== undefined) return exact;
  if (typeof value === 'string')
    return value === '' ? null : truncate(value, max);
  if (typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  return null;
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return exactIntegerText(value) ?? value;
  if (typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  return undefined;
}

export function normalizeEventId(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const hex = value.replace(/-/g, '').toLowerCase();
  return /^[0-9a-f]{32}$/.test(hex) ? hex : undefined;
}

/** An event's id: its envelope header's, else its own, else a new one. */
export function chooseEventId(
  envelopeEventId: unknown,
  sentEventId: unknown,
): string {
  return (
    normalizeEventId(envelopeEventId) ??
    normalizeEventId(sentEventId) ??
    randomUUID().replace(/-/g, '')
  );
}

/** RFC 3339 string, epoch seconds (number or numeric string); else undefined. */
export function parseTimestamp(value: unknown): Date | undefined {
  let ms: number;
  if (typeof value === 'number') ms = value * 1000;
  else if (typeof value === 'string') {
    const trimmed = value.trim();
    if (/^-?\d+(\.\d+)?$/.test(trimmed)) ms = Number(trimmed) * 1000;
    else {
      // Naive date-times are UTC, as Sentry reads them.
      const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(trimmed)
        ? trimmed
        : `${trimmed}Z`;
      ms = Date.parse(zoned);
    }
  } else return undefined;
  if (!Number.isFinite(ms)) return undefined;
  const date = new Date(Math.round(ms));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function normalizeLevel(value: unknown): string {
  if (typeof value === 'number') return PYTHON_LEVELS[value] ?? 'error';
  if (typeof value !== 'string') return 'error';
  const lower = value.toLowerCase();
  const level = LEVEL_ALIASES[lower] ?? PYTHON_LEVELS[lower] ?? lower;
  return LEVELS.has(level) ? level : 'error';
}

function normalizePlatform(value: unknown): string {
  return typeof value === 'string' && PLATFORMS.has(value) ? value : 'other';
}

/**
 * The event's time: as sent, unless missing, more than a minute ahead or
 * more than 30 days behind the received time (a reset clock, an offline
 * cache), which Relay replaces with the received time. Retention counts
 * from it, so an acknowledged event is kept its whole period.
 */
function eventTimestamp(sent: unknown, receivedAt: Date): Date {
  const timestamp = parseTimestamp(sent);
  if (!timestamp) return receivedAt;
  const offset = timestamp.getTime() - receivedAt.getTime();
  return offset > EVENT_MAX_FUTURE_MS || offset < -MAX_PAST_MS
    ? receivedAt
    : timestamp;
}

/**
 * Relay's `normalize_exceptions`: a top-level stack trace belongs to the
 * one exception that has none (older SDKs, non-Error values thrown in
 * JavaScript); with no exception it stays the event's (a message's).
 */
function moveStacktrace(
  exceptions: JsonObject[],
  stacktrace: JsonObject | undefined,
): JsonObject | undefined {
  if (!stacktrace) return undefined;
  const [only] = exceptions;
  if (exceptions.length === 1 && only && !only['stacktrace']) {
    only['stacktrace'] = stacktrace;
    return undefined;
  }
  return exceptions.length === 0 ? stacktrace : undefined;
}

function normalizeTags(value: unknown): Record<string, string> {
  const tags: Record<string, string> = {};
  const add = (key: unknown, tagValue: unknown) => {
    const k = text(key);
    const v = text(tagValue);
    if (k === undefined || k === '' || v === undefined) return;
    tags[truncate(k, TAG_MAX)] = truncate(v, TAG_MAX);
  };
  if (Array.isArray(value)) {
    for (const pair of value)
      if (Array.isArray(pair) && pair.length >= 2) add(pair[0], pair[1]);
  } else if (isJsonObject(value)) {
    for (const [k, v] of Object.entries(value)) add(k, v);
  }
  return tags;
}

function normalizeUser(
  value: unknown,
  clientIp: string | undefined,
): JsonObject | null {
  if (!isJsonObject(value)) return null;
  const user: JsonObject = {};
  // Like Relay, an attribute sent as null is no attribute at all.
  for (const [key, v] of Object.entries(value)) if (v !== null) user[key] = v;
  for (const field of ['id', 'email', 'username', 'ip_address']) {
    const v = text(user[field]);
    if (v === undefined || v === '') delete user[field];
    else user[field] = truncate(v, SHORT_FIELD_MAX);
  }
  if (user['ip_address'] === '{{auto}}') {
    if (clientIp) user['ip_address'] = clientIp;
    else delete user['ip_address'];
  }
  return Object.keys(user).length > 0 ? user : null;
}

function normalizeStacktrace(value: unknown): JsonObject | undefined {
  if (!isJsonObject(value) || !Array.isArray(value['frames'])) return undefined;
  return {
    ...value,
    frames: keptFrames(value['frames'].filter(isJsonObject)),
  };
}

function normalizeException(raw: JsonObject): JsonObject {
  const exception: JsonObject = { ...raw };
  const type = text(raw['type']);
  if (type !== undefined) exception['type'] = truncate(type, TITLE_MAX);
  const value = text(raw['value']);
  if (value !== undefined) exception['value'] = truncate(value, MESSAGE_MAX);
  const stacktrace = normalizeStacktrace(raw['stacktrace']);
  if (stacktrace) exception['stacktrace'] = stacktrace;
  else delete exception['stacktrace'];
  // The minified frames beside source-mapped ones, truncated alike.
  const rawStacktrace = normalizeStacktrace(raw['raw_stacktrace']);
  if (rawStacktrace) exception['raw_stacktrace'] = rawStacktrace;
  else delete exception['raw_stacktrace'];
  return exception;
}

function framesOf(container: unknown): Frame[] {
  if (!isJsonObject(container)) return [];
  const stacktrace = container['stacktrace'];
  if (!isJsonObject(stacktrace) || !Array.isArray(stacktrace['frames']))
    return [];
  return stacktrace['frames'].filter(isJsonObject) as Frame[];
}

function toExceptionValue(exception: JsonObject): ExceptionValue {
  const mechanism = exception['mechanism'];
  return {
    type: text(exception['type']) || undefined,
    value: text(exception['value']),
    module: text(exception['module']),
    synthetic: isJsonObject(mechanism) && mechanism['synthetic'] === true,
    frames: framesOf(exception),
  };
}

interface Message {
  formatted: string;
  template: string;
  logentry: JsonObject;
}

function normalizeMessage(payload: JsonObject): Message | null {
  const sources = [payload['logentry'], payload['message']];
  for (const source of sources) {
    if (typeof source === 'string' && source !== '') {
      const formatted = truncate(source, MESSAGE_MAX);
      return { formatted, template: formatted, logentry: { formatted } };
    }
    if (isJsonObject(source)) {
      const template = text(source['message']);
      const given = text(source['formatted']);
      const formatted =
        given || (template ? formatMessage(template, source['params']) : '');
      if (!formatted) continue;
      const logentry: JsonObject = {
        ...source,
        formatted: truncate(formatted, MESSAGE_MAX),
      };
      if (template) logentry['message'] = truncate(template, MESSAGE_MAX);
      return {
        formatted: truncate(formatted, MESSAGE_MAX),
        template: truncate(template || formatted, MESSAGE_MAX),
        logentry,
      };
    }
  }
  return null;
}

function normalizeFingerprint(value: unknown): string[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const parts = value
    .map((part) => text(part))
    .filter((part): part is string => part !== undefined);
  return parts.length > 0 ? parts.map((p) => truncate(p, TAG_MAX)) : null;
}

/**
 * A message event, even with an exception: Sentry's newer SDKs attach a
 * synthetic, type-less exception (just the stack) to captured messages.
 */
function isMessageEvent(
  exceptions: readonly ExceptionValue[],
  message: Message | null,
): boolean {
  if (exceptions.length === 0) return true;
  return message !== null && exceptions.every((e) => e.synthetic || !e.type);
}

/**
 * Turns an SDK's event into the normalised event: ids, timestamps, level,
 * defaults, user, tags, exception and message shapes, truncation, title and
 * culprit. Never rejects for content: odd values are dropped or truncated.
 */
export function normalizeEvent(
  sent: JsonObject,
  context: NormalizeContext,
): NormalizedEvent {
  const raw = renameLegacyKeys(sent);
  const { receivedAt } = context;
  const eventId = chooseEventId(context.envelopeEventId, raw['event_id']);
  const timestamp = eventTimestamp(raw['timestamp'], receivedAt);

  const level = normalizeLevel(raw['level']);
  const platform = normalizePlatform(raw['platform']);
  const release = shortString(raw['release']);
  const environment = shortString(raw['environment']) ?? 'production';
  const logger = shortString(raw['logger']);
  const transaction = shortString(raw['transaction']);
  const user = normalizeUser(raw['user'], context.clientIp);
  const tags = normalizeTags(raw['tags']);
  const rawExceptions = exceptionList(raw['exception']).map(normalizeException);
  const messageStacktrace = moveStacktrace(
    rawExceptions,
    normalizeStacktrace(raw['stacktrace']),
  );
  const exceptions = rawExceptions.map(toExceptionValue);
  const message = normalizeMessage(raw);
  const fingerprint = normalizeFingerprint(raw['fingerprint']);

  const payload: JsonObject = {
    ...raw,
    event_id: eventId,
    timestamp: timestamp.toISOString(),
    received_at: receivedAt.toISOString(),
    level,
    platform,
    environment,
    tags,
  };
  const sentTimestamp = raw['timestamp'];
  if (
    sentTimestamp !== undefined &&
    sentTimestamp !== null &&
    timestamp === receivedAt
  )
    payload['original_timestamp'] = sentTimestamp;
  if (messageStacktrace) payload['stacktrace'] = messageStacktrace;
  else delete payload['stacktrace'];
  if (release !== null) payload['release'] = release;
  else delete payload['release'];
  for (const [field, value] of [
    ['logger', logger],
    ['transaction', transaction],
    ['server_name', shortString(raw['server_name'])],
  ] as const) {
    if (value !== null) payload[field] = value;
    else delete payload[field];
  }
  if (user) payload['user'] = user;
  else delete payload['user'];
  if (rawExceptions.length > 0)
    payload['exception'] = { values: rawExceptions };
  else delete payload['exception'];
  if (message) {
    payload['logentry'] = message.logentry;
    payload['message'] = message.formatted;
  } else {
    delete payload['logentry'];
    delete payload['message'];
  }
  if (fingerprint) payload['fingerprint'] = fingerprint;
  else delete payload['fingerprint'];
  if (Array.isArray(raw['breadcrumbs']))
    payload['breadcrumbs'] = { values: raw['breadcrumbs'] };

  const messageEvent = isMessageEvent(exceptions, message);
  const thrown = exceptions[exceptions.length - 1];
  const type = messageEvent ? '' : (thrown?.type ?? '');
  const value = messageEvent
    ? (message?.formatted ?? thrown?.value ?? '')
    : (thrown?.value ?? '');
  const threads = exceptionList(raw['threads']);
  const request = raw['request'];
  const sources: TitleSources = {
    exceptions,
    messageEvent,
    message: message?.formatted ?? null,
    messageFrames: framesOf({ stacktrace: messageStacktrace }),
    onlyThreadFrames: threads.length === 1 ? framesOf(threads[0]) : [],
    sentCulprit: text(raw['culprit']) || undefined,
    transaction,
    platform,
    requestUrl: isJsonObject(request)
      ? text(request['url']) || undefined
      : undefined,
  };
  const title = eventTitle(sources);
  const culprit = eventCulprit(sources);

  const finalTitle = truncate(title, TITLE_MAX);
  const finalCulprit = truncate(culprit, CULPRIT_MAX);
  payload['title'] = finalTitle;
  payload['culprit'] = finalCulprit;

  return {
    eventId,
    timestamp,
    receivedAt,
    level,
    platform,
    release,
    environment,
    logger,
    transaction,
    user: user as EventUser | null,
    tags,
    exceptions,
    message: message?.formatted ?? null,
    messageTemplate: message?.template ?? null,
    fingerprint,
    messageFrames: sources.messageFrames,
    title: finalTitle,
    type: truncate(type, TITLE_MAX),
    value: truncate(value, MESSAGE_MAX),
    culprit: finalCulprit,
    payload,
  };
}
