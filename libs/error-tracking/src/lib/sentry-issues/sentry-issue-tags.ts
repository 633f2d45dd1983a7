import type { TagCount } from '../errors/errors.repository';

/** How many of an issue's latest events its tag counts read. */
export const TAG_WINDOW = 1000;
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

export function toSentryTagValue(count: TagCount): SentryTagValue {
  return {
    key: count.key,
    name: count.value,
    value: count.value,
    count: count.count,
    firstSeen: count.firstSeen.toISOString(),
    lastSeen: count.lastSeen.toISOString(),
  };
}

/** Per key: events tagged, distinct values, and the most frequent ones. */
export function toSentryTagKeys(counts: readonly TagCount[]): SentryTagKey[] {
  const keys = new Map<string, TagCount[]>();
  for (const count of counts)
    keys.set(count.key, [...(keys.get(count.key) ?? []), count]);
  return [...keys].map(([key, values]) => ({
    key,
    name: LABELS[key] ?? key,
    totalValues: values.reduce((sum, v) => sum + v.count, 0),
    uniqueValues: values.length,
    topValues: values.slice(0, TOP_VALUES).map(toSentryTagValue),
  }));
}
