import { isJsonObject } from '../sentry-event/event-json';
import type { JsonObject } from '../sentry-event/event-json';
import { SHORT_FIELD_MAX, TAG_MAX } from './limits';
import { parseTimestamp, truncate } from './normalize-event';

/** One `session` update, reduced to what release health counts. */
export interface SessionUpdate {
  readonly sid: string;
  readonly release: string;
  readonly environment: string;
  readonly startedAt: Date;
  readonly seenAt: Date;
  readonly errored: boolean;
  readonly crashed: boolean;
  readonly abnormal: boolean;
}

/** One bucket of a `sessions` item (pre-aggregated, request mode). */
export interface SessionBucket {
  readonly release: string;
  readonly environment: string;
  /** Start of the bucket's minute. */
  readonly started: Date;
  readonly exited: number;
  readonly errored: number;
  readonly crashed: number;
  readonly abnormal: number;
}

/** What an SDK says it dropped (`client_report`) or what we skipped. */
export interface Discard {
  readonly source: 'client' | 'server';
  readonly reason: string;
  readonly category: string;
  readonly quantity: number;
}

function attrsOf(
  payload: JsonObject,
): { release: string; environment: string } | null {
  const attrs = payload['attrs'];
  if (!isJsonObject(attrs)) return null;
  const release = attrs['release'];
  if (typeof release !== 'string' || release === '') return null;
  const environment = attrs['environment'];
  return {
    release: truncate(release, SHORT_FIELD_MAX),
    environment:
      typeof environment === 'string' && environment !== ''
        ? truncate(environment, SHORT_FIELD_MAX)
        : 'production',
  };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0
    ? Math.min(value, 1_000_000)
    : 0;
}

/** A `session` payload, or `null` when it is not one Sentry would accept. */
export function parseSession(
  payload: unknown,
  receivedAt: Date,
): SessionUpdate | null {
  if (!isJsonObject(payload)) return null;
  const sid = payload['sid'];
  if (typeof sid !== 'string' || sid === '' || sid.length > 100) return null;
  const attrs = attrsOf(payload);
  if (!attrs) return null;
  const status =
    typeof payload['status'] === 'string' ? payload['status'] : 'ok';
  const errors = count(payload['errors']);
  const seenAt = parseTimestamp(payload['timestamp']) ?? receivedAt;
  return {
    sid: sid.toLowerCase(),
    ...attrs,
    startedAt: parseTimestamp(payload['started']) ?? seenAt,
    seenAt,
    errored: errors > 0 || status === 'errored',
    crashed: status === 'crashed',
    abnormal: status === 'abnormal',
  };
}

/** A `sessions` payload's buckets, or `null` when it is malformed. */
export function parseSessionAggregates(
  payload: unknown,
  receivedAt: Date,
): SessionBucket[] | null {
  if (!isJsonObject(payload) || !Array.isArray(payload['aggregates']))
    return null;
  const attrs = attrsOf(payload);
  if (!attrs) return null;
  const buckets: SessionBucket[] = [];
  for (const aggregate of payload['aggregates']) {
    if (!isJsonObject(aggregate)) return null;
    const started = parseTimestamp(aggregate['started']) ?? receivedAt;
    started.setUTCSeconds(0, 0);
    buckets.push({
      ...attrs,
      started,
      exited: count(aggregate['exited']),
      errored: count(aggregate['errored']),
      crashed: count(aggregate['crashed']),
      abnormal: count(aggregate['abnormal']),
    });
  }
  return buckets;
}

/** A `client_report` payload's discarded counts, or `null` when malformed. */
export function parseClientReport(payload: unknown): Discard[] | null {
  if (!isJsonObject(payload)) return null;
  const discards: Discard[] = [];
  for (const field of [
    'discarded_events',
    'rate_limited_events',
    'filtered_events',
    'filtered_sampling_events',
  ]) {
    const entries = payload[field];
    if (entries === undefined) continue;
    if (!Array.isArray(entries)) return null;
    for (const entry of entries) {
      if (!isJsonObject(entry)) return null;
      const quantity = count(entry['quantity']);
      if (quantity === 0) continue;
      const reason =
        typeof entry['reason'] === 'string'
          ? entry['reason']
          : field.replace(/_events$/, '');
      const category =
        typeof entry['category'] === 'string' ? entry['category'] : 'default';
      discards.push({
        source: 'client',
        reason: truncate(reason, TAG_MAX),
        category: truncate(category, TAG_MAX),
        quantity,
      });
    }
  }
  return discards;
}
