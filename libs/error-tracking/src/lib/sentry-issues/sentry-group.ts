import type { ErrorRecord, Frequency } from '../errors/error.types';
import type { ProjectRecord } from '../projects/project.types';

/** Sentry's stats periods; only the hourly one is kept (24 buckets). */
export type StatsPeriod = '' | '24h';

/**
 * Sentry's issue (a "group", `GroupSerializer`/`StreamGroupSerializer`)
 * for what an error holds. Fields Sentry has for features that do not
 * exist here (assignees, bookmarks, subscriptions, comments, sharing) keep
 * their "none" values; fields that would need data not stored
 * (`isUnhandled`, `priority`) are left out rather than guessed.
 */
export interface SentryGroup {
  id: string;
  shortId: string;
  title: string;
  culprit: string;
  permalink: string;
  logger: string | null;
  level: string;
  status: string;
  /** An ignore's end time, as Sentry's `ignoreUntil` (counts are not kept as asked). */
  statusDetails: { ignoreUntil?: string };
  substatus: string | null;
  isPublic: false;
  shareId: null;
  platform: string | null;
  project: { id: string; name: string; slug: string; platform: null };
  type: 'error' | 'default';
  metadata: { type: string; value: string } | { title: string };
  numComments: 0;
  assignedTo: null;
  isBookmarked: false;
  isSubscribed: false;
  subscriptionDetails: null;
  hasSeen: false;
  annotations: [];
  issueType: 'error';
  issueCategory: 'error';
  count: string;
  userCount: number;
  firstSeen: string;
  lastSeen: string;
  stats?: { '24h': Frequency };
}

/** Sentry's substatus of each status (no escalation tracking here). */
const SUBSTATUS: Record<string, string | null> = {
  unresolved: 'ongoing',
  ignored: 'archived_forever',
  resolved: null,
};

/**
 * `SLUG-ID`: the project's path in capitals and the error's id in base 32,
 * as Sentry writes its short ids (they are not looked up here).
 */
export function shortId(project: ProjectRecord, errorId: string): string {
  const slug = project.path.slice(project.path.lastIndexOf('/') + 1);
  return `${slug.toUpperCase()}-${BigInt(errorId).toString(32).toUpperCase()}`;
}

export function toSentryGroup(
  project: ProjectRecord,
  error: ErrorRecord,
  permalink: string,
  stats: { period: StatsPeriod; frequency: Frequency },
): SentryGroup {
  // An event with an exception is Sentry's `error` type; a message alone is `default`.
  const isError = error.type !== '';
  return {
    id: error.id,
    shortId: shortId(project, error.id),
    title: error.title,
    culprit: error.culprit,
    permalink,
    logger: error.logger,
    level: error.level,
    status: error.status,
    statusDetails:
      error.status === 'ignored' && error.ignoredUntil
        ? { ignoreUntil: error.ignoredUntil.toISOString() }
        : {},
    substatus: SUBSTATUS[error.status] ?? null,
    isPublic: false,
    shareId: null,
    platform: error.platform,
    project: {
      id: String(project.id),
      name: project.name,
      slug: project.path,
      // Projects here have no platform of their own.
      platform: null,
    },
    type: isError ? 'error' : 'default',
    metadata: isError
      ? { type: error.type, value: error.message }
      : { title: error.title },
    numComments: 0,
    assignedTo: null,
    isBookmarked: false,
    isSubscribed: false,
    subscriptionDetails: null,
    hasSeen: false,
    annotations: [],
    issueType: 'error',
    issueCategory: 'error',
    count: String(error.count),
    userCount: error.userCount,
    firstSeen: error.firstSeen.toISOString(),
    lastSeen: error.lastSeen.toISOString(),
    ...(stats.period === '24h' ? { stats: { '24h': stats.frequency } } : {}),
  };
}
