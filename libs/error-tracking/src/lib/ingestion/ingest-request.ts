import type {
  Discard,
  SessionBucket,
  SessionUpdate,
} from './release-health-items';

/** One event ready to store: the normalised payload and its grouping. */
export interface PreparedEvent {
  /** 32 lowercase hex, as SDKs and the API show it. */
  readonly eventId: string;
  readonly timestamp: Date;
  readonly receivedAt: Date;
  readonly fingerprint: string;
  readonly groupingVersion: number;
  /**
   * The previous grouping version's hash: the event joins the error it
   * names when there is one and none for `fingerprint` yet.
   */
  readonly previousFingerprint: string | null;
  /**
   * The version before that one's hash, joined likewise when neither of
   * the others names an error (absent from events spooled before it).
   */
  readonly olderFingerprint?: string | null;
  readonly level: string;
  readonly logger: string | null;
  readonly release: string | null;
  readonly environment: string;
  readonly platform: string;
  readonly title: string;
  readonly type: string;
  readonly message: string;
  readonly culprit: string;
  readonly userKey: string | null;
  /** The whole normalised event as JSON text. */
  readonly payloadJson: string;
  /**
   * Its counted and searchable tags (`eventTags`) as a JSON object; absent
   * from events spooled before tags were derived (read from the payload).
   */
  readonly tagsJson?: string;
}

/** What one collector request carries, parsed and normalised. */
export interface PreparedRequest {
  readonly events: readonly PreparedEvent[];
  readonly sessions: readonly SessionUpdate[];
  readonly buckets: readonly SessionBucket[];
  readonly discards: readonly Discard[];
  /**
   * Attachments stored with the request's event (their rows are written
   * as the body streams in): counted against the key's `attachment` limit.
   */
  readonly attachments?: number;
}

/** Where a drained request was spooled: the spool file, its row there. */
export interface SpoolEntryRef {
  readonly spoolId: string;
  readonly entryId: number;
}

/** A prepared request of an authenticated client key. */
export interface IngestRequest extends PreparedRequest {
  readonly keyId: number;
  readonly projectId: number;
  readonly receivedAt: Date;
  /** Set by the drainer: the flush commits a spooled request once. */
  readonly spooled?: SpoolEntryRef;
}

/**
 * How the flush decided about one request; `spooled`: the database did not
 * take it in time and the spool holds it until it does; `replayed`: a
 * drained request whose commit was recorded already (skipped whole).
 */
export type IngestVerdict =
  'ok' | 'forbidden' | 'rate_limited' | 'spooled' | 'replayed';
