export const ERROR_STATUSES = ['unresolved', 'resolved', 'ignored'] as const;
export type ErrorStatus = (typeof ERROR_STATUSES)[number];

/** The levels a normalised event has. */
export const EVENT_LEVELS = [
  'fatal',
  'error',
  'warning',
  'info',
  'debug',
] as const;

export const ERROR_SORTS = ['last_seen', 'first_seen', 'frequency'] as const;
export type ErrorSort = (typeof ERROR_SORTS)[number];

/** A grouped error with its aggregates. */
export interface ErrorRecord {
  readonly id: string;
  readonly projectId: number;
  readonly title: string;
  readonly type: string;
  readonly message: string;
  readonly culprit: string;
  readonly status: ErrorStatus;
  readonly count: number;
  readonly userCount: number;
  readonly firstSeen: Date;
  readonly lastSeen: Date;
  readonly level: string;
  readonly logger: string | null;
  readonly platform: string | null;
  readonly firstRelease: string | null;
  readonly lastRelease: string | null;
  readonly lastEventId: string;
  readonly issueIid: number | null;
  readonly groupingVersion: number;
  /**
   * While ignored with a condition, what reopens it (see `IgnoreUntil`): a
   * time, a total event count, a total user count. Absent or null: none.
   */
  readonly ignoredUntil?: Date | null;
  readonly ignoredUntilCount?: number | null;
  readonly ignoredUntilUserCount?: number | null;
}

/**
 * Sentry's snooze: ignore until a duration has passed, until N more events,
 * or until N more distinct users; whichever comes first reopens the error.
 */
export interface IgnoreUntil {
  readonly minutes?: number;
  readonly events?: number;
  readonly users?: number;
}

/** Errors one bulk change takes at most (Sentry's `BULK_MUTATION_LIMIT`). */
export const MAX_BULK_ERRORS = 1000;

/** Bounds of an ignore condition (Sentry's own are wider; a year is enough). */
export const MAX_IGNORE_MINUTES = 525_600;
export const MAX_IGNORE_COUNT = 1_000_000_000;

/** Hourly occurrences, `[unix seconds of the hour's start, count]`, oldest first. */
export type Frequency = Array<[number, number]>;

/** One occurrence as the events list shows it. */
export interface EventSummary {
  readonly eventId: string;
  readonly timestamp: Date;
  readonly receivedAt: Date;
  readonly level: string;
  readonly title: string;
  readonly message: string;
  readonly release: string | null;
  readonly environment: string;
  readonly platform: string | null;
  readonly user: unknown;
  readonly tags: unknown;
  readonly sdk: unknown;
}

export interface StoredEvent {
  readonly payload: Record<string, unknown>;
  /**
   * The payload as stored, exact: integers beyond 2^53 keep their digits
   * here, where `payload` rounds them (absent for a made-up event).
   */
  readonly payloadJson?: string;
  readonly receivedAt: Date;
  /** The event's time (its place among the error's events). */
  readonly timestamp: Date;
}

/** An event's place in its error's events: newest first by (timestamp, id). */
export interface EventPosition {
  readonly timestamp: Date;
  readonly eventId: string;
}

/** The events to step to from one event of an error (null: none that way). */
export interface EventNeighbours {
  readonly oldest: string | null;
  readonly older: string | null;
  readonly newer: string | null;
  readonly latest: string | null;
}
