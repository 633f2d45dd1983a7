import type { EventSummary, StoredEvent } from '../errors/error.types';
import { isJsonObject } from '../sentry-event/event-json';
import type { JsonObject } from '../sentry-event/event-json';
import { scrubEventPayload } from '../sentry-event/scrub-event';

export interface SentryTag {
  key: string;
  value: string;
}

/**
 * Sentry's tag list of an event: the SDK's tags, then the ones Sentry
 * derives from fields (`level`, `environment`, `release`) where the SDK
 * did not set them.
 */
export function eventTags(
  tags: unknown,
  fields: { level: string; environment: string; release: string | null },
): SentryTag[] {
  const list: SentryTag[] = isJsonObject(tags)
    ? Object.entries(tags)
        .filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string',
        )
        .map(([key, value]) => ({ key, value }))
    : [];
  for (const [key, value] of [
    ['level', fields.level],
    ['environment', fields.environment],
    ['release', fields.release],
  ] as const)
    if (value && !list.some((tag) => tag.key === key))
      list.push({ key, value });
  return list.sort((a, b) => a.key.localeCompare(b.key));
}

/** Sentry's event id text: 32 hex digits. */
function hex(eventId: string): string {
  return eventId.replace(/-/g, '').toLowerCase();
}

/** An event in an issue's event list (Sentry's `SimpleEventSerializer`). */
export function toSentryEventSummary(
  groupId: string,
  projectId: number,
  event: EventSummary,
): JsonObject {
  return {
    id: event.eventId,
    eventID: event.eventId,
    groupID: groupId,
    projectID: String(projectId),
    title: event.title,
    message: event.message,
    platform: event.platform,
    dateCreated: event.timestamp.toISOString(),
    dateReceived: event.receivedAt.toISOString(),
    user: event.user ?? null,
    tags: eventTags(event.tags, event),
  };
}

function values(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (isJsonObject(value) && Array.isArray(value['values']))
    return value['values'] as unknown[];
  return [];
}

/** Sentry's `entries`: the interfaces the stored event has, in its order. */
function entries(payload: JsonObject): JsonObject[] {
  const list: JsonObject[] = [];
  const exception = values(payload['exception']);
  if (exception.length > 0)
    list.push({ type: 'exception', data: { values: exception } });
  const logentry = payload['logentry'];
  if (isJsonObject(logentry)) list.push({ type: 'message', data: logentry });
  else if (typeof payload['message'] === 'string' && exception.length === 0)
    list.push({ type: 'message', data: { formatted: payload['message'] } });
  const threads = values(payload['threads']);
  if (threads.length > 0)
    list.push({ type: 'threads', data: { values: threads } });
  const breadcrumbs = values(payload['breadcrumbs']);
  if (breadcrumbs.length > 0)
    list.push({ type: 'breadcrumbs', data: { values: breadcrumbs } });
  if (isJsonObject(payload['request']))
    list.push({ type: 'request', data: payload['request'] });
  return list;
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/**
 * One whole event (Sentry's `EventSerializer`), built from the stored,
 * normalised payload: its interfaces as `entries`, tags as a list, and the
 * release as Sentry's release object with the version only (the release
 * records here hold no more that an event shows).
 */
export function toSentryEvent(
  groupId: string,
  projectId: number,
  eventId: string,
  stored: StoredEvent,
): JsonObject {
  // Events stored before data scrubbing are scrubbed as they are read.
  const payload = scrubEventPayload(stored.payload);
  const id = hex(eventId);
  const timestamp = payload['timestamp'];
  const release = text(payload['release']);
  const level = text(payload['level']) ?? 'error';
  const environment = text(payload['environment']) ?? '';
  const hasException = values(payload['exception']).length > 0;
  return {
    id,
    eventID: id,
    groupID: groupId,
    projectID: String(projectId),
    type: hasException ? 'error' : 'default',
    title: text(payload['title']) ?? '',
    message: text(payload['message']) ?? '',
    culprit: text(payload['culprit']),
    platform: text(payload['platform']),
    dateCreated:
      typeof timestamp === 'number'
        ? new Date(timestamp * 1000).toISOString()
        : typeof timestamp === 'string'
          ? timestamp
          : stored.receivedAt.toISOString(),
    dateReceived: stored.receivedAt.toISOString(),
    tags: eventTags(payload['tags'], { level, environment, release }),
    user: isJsonObject(payload['user']) ? payload['user'] : null,
    contexts: isJsonObject(payload['contexts']) ? payload['contexts'] : {},
    context: isJsonObject(payload['extra']) ? payload['extra'] : {},
    sdk: isJsonObject(payload['sdk']) ? payload['sdk'] : null,
    release: release ? { version: release } : null,
    dist: text(payload['dist']),
    fingerprints: Array.isArray(payload['fingerprint'])
      ? payload['fingerprint']
      : [],
    entries: entries(payload),
    errors: [],
  };
}
