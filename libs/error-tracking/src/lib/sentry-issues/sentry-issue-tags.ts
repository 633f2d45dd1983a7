import type {
  TagKeyDistribution,
  TagValueCount,
} from '../errors/tag-distribution';
/** Values per key on `/tags/` (Sentry's top values). */
export const TOP_VALUES = 9;
/** Values on `/tags/{key}/values/`, most frequent first. */
export const MAX_TAG_VALUES = 100;

/** Sentry's labels of the tags it derives; any other key is its own label. */
const LABELS: Readonly<Record<string, string>> = {
  level: 'Level',
  environment: 'Environment',
  release: 'Release',
};

export interface SentryTagValue {
  key: string;
  name: string;
  value: string;
  count: number;
  firstSeen: string;
  lastSeen: string;
}

export interface SentryTagKey {
  key: string;
  name: string;
  totalValues: number;
  uniqueValues: number;
  topValues: SentryTagValue[];
}

export function toSentryTagValue(
  key: string,
  count: TagValueCount,
): SentryTagValue {
  return {
    key,
    name: count.value,
    value: count.value,
    count: count.count,
    firstSeen: count.firstSeen.toISOString(),
    lastSeen: count.lastSeen.toISOString(),
  };
}

/** Per key: events tagged, distinct values, and the most frequent ones. */
export function toSentryTagKeys(
  keys: readonly TagKeyDistribution[],
): SentryTagKey[] {
  return keys.map((tag) => ({
    key: tag.key,
    name: LABELS[tag.key] ?? tag.key,
    totalValues: tag.total,
    uniqueValues: tag.uniqueValues,
    topValues: tag.topValues.map((value) => toSentryTagValue(tag.key, value)),
  }));
}
