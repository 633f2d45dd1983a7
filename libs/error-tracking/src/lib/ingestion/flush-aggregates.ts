import type { PreparedEvent } from './ingest-request';
import type {
  Discard,
  SessionBucket,
  SessionUpdate,
} from './release-health-items';

const HOUR_MS = 3_600_000;

export function hourOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
}

/** One error's share of a flush: what its upsert adds. */
export interface ErrorDelta {
  readonly projectId: number;
  readonly fingerprint: string;
  readonly groupingVersion: number;
  events: number;
  newUsers: number;
  first: PreparedEvent;
  last: PreparedEvent;
}

export interface FreshEvent {
  readonly projectId: number;
  readonly event: PreparedEvent;
}

export interface FlushAggregates {
  readonly errors: ErrorDelta[];
  readonly hourly: Array<{
    projectId: number;
    fingerprint: string;
    hour: Date;
    count: number;
  }>;
  readonly facets: Array<{
    projectId: number;
    fingerprint: string;
    kind: 'environment' | 'release';
    value: string;
    lastSeen: Date;
  }>;
}

function errorKey(projectId: number, fingerprint: string): string {
  return `${projectId}:${fingerprint}`;
}

/**
 * Folds a flush's new (non-duplicate) events into one delta per error, so
 * each error is upserted once per flush however many events it got. Ties
 * go to the later arrival for "latest" and to the earlier one for "first",
 * matching the upsert's `>=` / `<`.
 */
export function aggregateFresh(
  fresh: readonly FreshEvent[],
  newUsers: ReadonlyMap<string, number>,
): FlushAggregates {
  const errors = new Map<string, ErrorDelta>();
  const hourly = new Map<string, FlushAggregates['hourly'][number]>();
  const facets = new Map<string, FlushAggregates['facets'][number]>();
  for (const { projectId, event } of fresh) {
    const key = errorKey(projectId, event.fingerprint);
    const delta = errors.get(key);
    if (!delta) {
      errors.set(key, {
        projectId,
        fingerprint: event.fingerprint,
        groupingVersion: event.groupingVersion,
        events: 1,
        newUsers: newUsers.get(key) ?? 0,
        first: event,
        last: event,
      });
    } else {
      delta.events += 1;
      if (event.timestamp < delta.first.timestamp) delta.first = event;
      if (event.timestamp >= delta.last.timestamp) delta.last = event;
    }
    const hour = hourOf(event.timestamp);
    const hourKey = `${key}:${hour.getTime()}`;
    const bucket = hourly.get(hourKey);
    if (bucket) bucket.count += 1;
    else
      hourly.set(hourKey, {
        projectId,
        fingerprint: event.fingerprint,
        hour,
        count: 1,
      });
    const kinds: Array<['environment' | 'release', string | null]> = [
      ['environment', event.environment],
      ['release', event.release],
    ];
    for (const [kind, value] of kinds) {
      if (value === null) continue;
      const facetKey = `${key}:${kind}:${value}`;
      const facet = facets.get(facetKey);
      if (!facet)
        facets.set(facetKey, {
          projectId,
          fingerprint: event.fingerprint,
          kind,
          value,
          lastSeen: event.timestamp,
        });
      else if (event.timestamp > facet.lastSeen)
        facet.lastSeen = event.timestamp;
    }
  }
  return {
    errors: [...errors.values()],
    hourly: [...hourly.values()],
    facets: [...facets.values()],
  };
}

/** Session updates merged per session id (one upsert row each). */
export function mergeSessions(
  sessions: ReadonlyArray<{ projectId: number; session: SessionUpdate }>,
): Array<{ projectId: number; session: SessionUpdate }> {
  const merged = new Map<
    string,
    { projectId: number; session: SessionUpdate }
  >();
  for (const entry of sessions) {
    const key = `${entry.projectId}:${entry.session.sid}`;
    const seen = merged.get(key);
    if (!seen) {
      merged.set(key, entry);
      continue;
    }
    const a = seen.session;
    const b = entry.session;
    seen.session = {
      ...a,
      startedAt: a.startedAt < b.startedAt ? a.startedAt : b.startedAt,
      seenAt: a.seenAt > b.seenAt ? a.seenAt : b.seenAt,
      errored: a.errored || b.errored,
      crashed: a.crashed || b.crashed,
      abnormal: a.abnormal || b.abnormal,
    };
  }
  return [...merged.values()];
}

/** Session buckets summed per (project, release, environment, minute). */
export function mergeBuckets(
  buckets: ReadonlyArray<{ projectId: number; bucket: SessionBucket }>,
): Array<{ projectId: number; bucket: SessionBucket }> {
  const merged = new Map<
    string,
    { projectId: number; bucket: SessionBucket }
  >();
  for (const entry of buckets) {
    const b = entry.bucket;
    const key = JSON.stringify([
      entry.projectId,
      b.release,
      b.environment,
      b.started.getTime(),
    ]);
    const seen = merged.get(key);
    if (!seen)
      merged.set(key, { projectId: entry.projectId, bucket: { ...b } });
    else
      seen.bucket = {
        ...seen.bucket,
        exited: seen.bucket.exited + b.exited,
        errored: seen.bucket.errored + b.errored,
        crashed: seen.bucket.crashed + b.crashed,
        abnormal: seen.bucket.abnormal + b.abnormal,
      };
  }
  return [...merged.values()];
}

/** Discards summed per (project, day, source, reason, category). */
export function mergeDiscards(
  discards: ReadonlyArray<{ projectId: number; day: string; discard: Discard }>,
): Array<{ projectId: number; day: string; discard: Discard }> {
  const merged = new Map<
    string,
    { projectId: number; day: string; discard: Discard }
  >();
  for (const entry of discards) {
    const d = entry.discard;
    const key = JSON.stringify([
      entry.projectId,
      entry.day,
      d.source,
      d.reason,
      d.category,
    ]);
    const seen = merged.get(key);
    if (!seen) merged.set(key, { ...entry, discard: { ...d } });
    else
      seen.discard = {
        ...seen.discard,
        quantity: seen.discard.quantity + d.quantity,
      };
  }
  return [...merged.values()];
}
