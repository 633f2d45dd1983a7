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
}

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
}
