import type {
  Discard,
  SessionBucket,
  SessionUpdate,
} from '../release-health-items';
import type { IngestRequest, PreparedEvent } from '../ingest-request';
import { tagsJsonOf } from '../derived-tags';
import { namedParams } from './named-params';

/** 32-hex event id as a PostgreSQL uuid literal. */
export function toUuid(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * One flush's batch, flattened: each row knows the index of its request in
 * the batch (`index`), which the statement joins on to keep only the rows
 * of admitted requests.
 */
export interface FlushInput {
  readonly batch: readonly IngestRequest[];
  readonly events: ReadonlyArray<{
    readonly index: number;
    readonly request: IngestRequest;
    readonly event: PreparedEvent;
  }>;
  readonly sessions: ReadonlyArray<{
    readonly index: number;
    readonly session: SessionUpdate;
  }>;
  readonly buckets: ReadonlyArray<{
    readonly index: number;
    readonly bucket: SessionBucket;
  }>;
  readonly discards: ReadonlyArray<{
    readonly index: number;
    readonly day: string;
    readonly discard: Discard;
  }>;
  /** What each request records, per Sentry data category (`error`, ...). */
  readonly quotas: ReadonlyArray<{
    readonly index: number;
    readonly category: string;
    readonly quantity: number;
  }>;
  /** Start of the current minute: the rate-limit window. */
  readonly windowStart: Date;
  /** Items per minute, key and category; 0 = unlimited. */
  readonly rateLimit: number;
  readonly now: Date;
  /** Marks the errors this flush regressed (`regression_flush`). */
  readonly flushId: string;
}

/**
 * The flush's parameters, column by column: arrays the statement unnests
 * (one element per request, event, session, bucket or discard) and the
 * flush's scalars. Declaration order is `$n` order.
 */
const GETTERS = {
  requestIndexes: (f) => f.batch.map((_, index) => index),
  requestKeyIds: (f) => f.batch.map((request) => request.keyId),
  requestProjectIds: (f) => f.batch.map((request) => request.projectId),
  requestSpoolIds: (f) =>
    f.batch.map((request) => request.spooled?.spoolId ?? null),
  requestSpoolEntries: (f) =>
    f.batch.map((request) => request.spooled?.entryId ?? null),
  quotaRequests: (f) => f.quotas.map((q) => q.index),
  quotaCategories: (f) => f.quotas.map((q) => q.category),
  quotaQuantities: (f) => f.quotas.map((q) => q.quantity),
  windowStart: (f) => f.windowStart,
  rateLimit: (f) => f.rateLimit,
  eventRequests: (f) => f.events.map((e) => e.index),
  eventProjectIds: (f) => f.events.map((e) => e.request.projectId),
  eventIds: (f) => f.events.map((e) => toUuid(e.event.eventId)),
  eventTimestamps: (f) => f.events.map((e) => e.event.timestamp),
  eventReceivedAts: (f) => f.events.map((e) => e.event.receivedAt),
  eventFingerprints: (f) => f.events.map((e) => e.event.fingerprint),
  eventPreviousFingerprints: (f) =>
    f.events.map((e) => e.event.previousFingerprint),
  eventOlderFingerprints: (f) =>
    f.events.map((e) => e.event.olderFingerprint ?? null),
  eventUserKeys: (f) => f.events.map((e) => e.event.userKey),
  eventGroupingVersions: (f) => f.events.map((e) => e.event.groupingVersion),
  eventLevels: (f) => f.events.map((e) => e.event.level),
  eventLoggers: (f) => f.events.map((e) => e.event.logger),
  eventReleases: (f) => f.events.map((e) => e.event.release),
  eventEnvironments: (f) => f.events.map((e) => e.event.environment),
  eventPlatforms: (f) => f.events.map((e) => e.event.platform),
  eventTitles: (f) => f.events.map((e) => e.event.title),
  eventTypes: (f) => f.events.map((e) => e.event.type),
  eventMessages: (f) => f.events.map((e) => e.event.message),
  eventCulprits: (f) => f.events.map((e) => e.event.culprit),
  // Already JSON: joined, not escaped element by element.
  eventPayloads: (f) =>
    `[${f.events.map((e) => e.event.payloadJson).join(',')}]`,
  eventTagSets: (f) =>
    `[${f.events.map((e) => tagsJsonOf(e.event)).join(',')}]`,
  now: (f) => f.now,
  flushId: (f) => f.flushId,
  sessionRequests: (f) => f.sessions.map((s) => s.index),
  sessionIds: (f) => f.sessions.map((s) => s.session.sid),
  sessionReleases: (f) => f.sessions.map((s) => s.session.release),
  sessionEnvironments: (f) => f.sessions.map((s) => s.session.environment),
  sessionStartedAts: (f) => f.sessions.map((s) => s.session.startedAt),
  sessionSeenAts: (f) => f.sessions.map((s) => s.session.seenAt),
  sessionErrored: (f) => f.sessions.map((s) => s.session.errored),
  sessionCrashed: (f) => f.sessions.map((s) => s.session.crashed),
  sessionAbnormal: (f) => f.sessions.map((s) => s.session.abnormal),
  bucketRequests: (f) => f.buckets.map((b) => b.index),
  bucketReleases: (f) => f.buckets.map((b) => b.bucket.release),
  bucketEnvironments: (f) => f.buckets.map((b) => b.bucket.environment),
  bucketStarts: (f) => f.buckets.map((b) => b.bucket.started),
  bucketExited: (f) => f.buckets.map((b) => b.bucket.exited),
  bucketErrored: (f) => f.buckets.map((b) => b.bucket.errored),
  bucketCrashed: (f) => f.buckets.map((b) => b.bucket.crashed),
  bucketAbnormal: (f) => f.buckets.map((b) => b.bucket.abnormal),
  discardRequests: (f) => f.discards.map((d) => d.index),
  discardDays: (f) => f.discards.map((d) => d.day),
  discardSources: (f) => f.discards.map((d) => d.discard.source),
  discardReasons: (f) => f.discards.map((d) => d.discard.reason),
  discardCategories: (f) => f.discards.map((d) => d.discard.category),
  discardQuantities: (f) => f.discards.map((d) => d.discard.quantity),
} satisfies Record<string, (f: FlushInput) => unknown>;

export const FLUSH_PARAMS = namedParams(GETTERS);

/** The placeholders the steps write, e.g. `P.now` is `$25`. */
export const P = FLUSH_PARAMS.refs;
