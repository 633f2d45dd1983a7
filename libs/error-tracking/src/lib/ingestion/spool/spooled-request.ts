import type { IngestRequest, PreparedEvent } from '../ingest-request';
import type { SessionBucket, SessionUpdate } from '../release-health-items';

/**
 * A collector request as the spool keeps it: JSON text of the prepared
 * request. Dates travel as epoch milliseconds and are revived field by
 * field (the event's own JSON stays one string, never parsed here).
 */
type Encoded<T, K extends keyof T> = Omit<T, K> & { [P in K]: number };

type EncodedEvent = Encoded<PreparedEvent, 'timestamp' | 'receivedAt'>;
type EncodedSession = Encoded<SessionUpdate, 'startedAt' | 'seenAt'>;
type EncodedBucket = Encoded<SessionBucket, 'started'>;

interface EncodedRequest {
  readonly keyId: number;
  readonly projectId: number;
  readonly receivedAt: number;
  readonly events: readonly EncodedEvent[];
  readonly sessions: readonly EncodedSession[];
  readonly buckets: readonly EncodedBucket[];
  readonly discards: IngestRequest['discards'];
}

export function encodeSpooled(request: IngestRequest): string {
  const encoded: EncodedRequest = {
    keyId: request.keyId,
    projectId: request.projectId,
    receivedAt: request.receivedAt.getTime(),
    events: request.events.map((event) => ({
      ...event,
      timestamp: event.timestamp.getTime(),
      receivedAt: event.receivedAt.getTime(),
    })),
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
  };
  return JSON.stringify(encoded);
}

export function decodeSpooled(text: string): IngestRequest {
  const encoded = JSON.parse(text) as EncodedRequest;
  return {
    keyId: encoded.keyId,
    projectId: encoded.projectId,
    receivedAt: new Date(encoded.receivedAt),
    events: encoded.events.map((event) => ({
      ...event,
      timestamp: new Date(event.timestamp),
      receivedAt: new Date(event.receivedAt),
    })),
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
  };
}
