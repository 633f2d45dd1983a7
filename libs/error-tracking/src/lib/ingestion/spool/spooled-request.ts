import type { JsonObject } from '../../sentry-event/event-json';
import type { IngestRequest, PreparedEvent } from '../ingest-request';
import { parsePayloadJson, restoreExactIntegers } from '../payload-json';
import type { SessionBucket, SessionUpdate } from '../release-health-items';

/**
 * An event spooled before its frames could be resolved (the source maps it
 * needs were not cached and the database did not answer): normalised and
 * grouped when drained, once the maps can be read.
 */
export interface UnresolvedEvent {
  /** The event as sent. */
  readonly raw: JsonObject;
  /** Its id, fixed when the request was acknowledged with it. */
  readonly eventId: string;
  readonly clientIp?: string;
}

export type SpooledEvent = PreparedEvent | UnresolvedEvent;

/** A collector request as the spool holds it. */
export interface SpooledRequest extends Omit<IngestRequest, 'events'> {
  readonly events: readonly SpooledEvent[];
}

export function isUnresolved(event: SpooledEvent): event is UnresolvedEvent {
  return 'raw' in event;
}

/**
 * A spooled request as the spool keeps it: JSON text. Dates travel as
 * epoch milliseconds and are revived field by field (a prepared event's own
 * JSON stays one string, never parsed here; an unresolved event's is parsed
 * again as the collector parses a body, exact integers included).
 */
type Encoded<T, K extends keyof T> = Omit<T, K> & { [P in K]: number };

type EncodedEvent = Encoded<PreparedEvent, 'timestamp' | 'receivedAt'>;
interface EncodedUnresolved extends Omit<UnresolvedEvent, 'raw'> {
  readonly rawJson: string;
}
type EncodedSession = Encoded<SessionUpdate, 'startedAt' | 'seenAt'>;
type EncodedBucket = Encoded<SessionBucket, 'started'>;

interface EncodedRequest {
  readonly keyId: number;
  readonly projectId: number;
  readonly receivedAt: number;
  readonly events: ReadonlyArray<EncodedEvent | EncodedUnresolved>;
  readonly sessions: readonly EncodedSession[];
  readonly buckets: readonly EncodedBucket[];
  readonly discards: IngestRequest['discards'];
  readonly attachments?: number;
}

function encodeEvent(event: SpooledEvent): EncodedEvent | EncodedUnresolved {
  if (isUnresolved(event)) {
    const { raw, ...rest } = event;
    return { ...rest, rawJson: restoreExactIntegers(JSON.stringify(raw)) };
  }
  return {
    ...event,
    timestamp: event.timestamp.getTime(),
    receivedAt: event.receivedAt.getTime(),
  };
}

function decodeEvent(event: EncodedEvent | EncodedUnresolved): SpooledEvent {
  if ('rawJson' in event) {
    const { rawJson, ...rest } = event;
    return {
      ...rest,
      raw: parsePayloadJson(Buffer.from(rawJson)) as JsonObject,
    };
  }
  return {
    ...event,
    timestamp: new Date(event.timestamp),
    receivedAt: new Date(event.receivedAt),
  };
}

export function encodeSpooled(request: SpooledRequest): string {
  const encoded: EncodedRequest = {
    keyId: request.keyId,
    projectId: request.projectId,
    receivedAt: request.receivedAt.getTime(),
    events: request.events.map(encodeEvent),
    sessions: request.sessions.map((session) => ({
      ...session,
      startedAt: session.startedAt.getTime(),
      seenAt: session.seenAt.getTime(),
    })),
    buckets: request.buckets.map((bucket) => ({
      ...bucket,
      started: bucket.started.getTime(),
    })),
    discards: request.discards,
    attachments: request.attachments,
  };
  return JSON.stringify(encoded);
}

export function decodeSpooled(text: string): SpooledRequest {
  const encoded = JSON.parse(text) as EncodedRequest;
  return {
    keyId: encoded.keyId,
    projectId: encoded.projectId,
    receivedAt: new Date(encoded.receivedAt),
    events: encoded.events.map(decodeEvent),
    sessions: encoded.sessions.map((session) => ({
      ...session,
      startedAt: new Date(session.startedAt),
      seenAt: new Date(session.seenAt),
    })),
    buckets: encoded.buckets.map((bucket) => ({
      ...bucket,
      started: new Date(bucket.started),
    })),
    discards: encoded.discards,
    attachments: encoded.attachments,
  };
}
