import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';

import {
  createEventPartitions,
  isMissingPartition,
  utcDay,
} from '../persistence/event-partitions';
import { ErrorTrackingRepository } from '../persistence/error-tracking-repository';
import { FLUSH_SQL, flushValues } from './flush/flush-statement';
import type { IngestRequest, IngestVerdict } from './ingest-request';
import { recordedQuantities } from './rate-limit-categories';
import type { WindowCount } from './rate-limiter';

export interface FlushResult {
  /** One per request of the batch, in order. */
  readonly verdicts: IngestVerdict[];
  /** Events stored (duplicates and rejected requests excluded). */
  readonly stored: number;
  /** Events that were already stored (same project and event id). */
  readonly duplicates: number;
  /** Each key's rate-limit windows this flush counted in, after it. */
  readonly windows: readonly WindowCount[];
  readonly reopenedIssues: number;
  /** Alerts recorded in the outbox (new, regression, frequent). */
  readonly alerts: number;
}

export interface FlushOptions {
  readonly now: Date;
  /** Items per minute, key and category; 0 = unlimited. */
  readonly rateLimit: number;
}

interface FlushRow {
  rejected: Array<[number, IngestVerdict]>;
  windows: Array<[number, string, number]>;
  stored: number;
  reopened: number;
  alerts: number;
}

const RETRYABLE = new Set(['40P01', '40001']);
const MAX_ATTEMPTS = 4;
const MINUTE_MS = 60_000;

/**
 * The ingestion flush: everything a batch of collector requests writes, as
 * ONE statement (so one round trip and one implicit transaction, whatever
 * the batch size), assembled from named steps in `flush/`:
 *
 * - admission: keys still active and tracking still on (a deleted key stops
 *   at once on every replica), the per-key rate-limit window (shared by all
 *   replicas, decided here), duplicate event ids;
 * - each error upserted once with the batch's aggregates, its events, users,
 *   hourly counts, facets, the issues its regression reopens;
 * - the alerts it triggers (outbox `alerts`): a new error, a regression, a
 *   `frequent` threshold crossed (counted on the error row, only for
 *   projects that set one);
 * - release health and discarded counts of the admitted requests.
 *
 * Rows are written in key order so concurrent flushes of several replicas
 * lock in the same order (no deadlocks; a deadlock would be retried).
 */
@Injectable()
export class IngestionRepository extends ErrorTrackingRepository {
  private readonly knownPartitions = new Set<string>();

  async flush(
    batch: readonly IngestRequest[],
    options: FlushOptions,
  ): Promise<FlushResult> {
    for (let attempt = 1; ; attempt++) {
      await this.ensurePartitions(batch);
      try {
        return await this.flushOnce(batch, options);
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (attempt >= MAX_ATTEMPTS) throw error;
        if (isMissingPartition(error)) {
          // Retention dropped a partition this process thought it had.
          this.knownPartitions.clear();
          continue;
        }
        if (typeof code === 'string' && RETRYABLE.has(code)) continue;
        throw error;
      }
    }
  }

  /**
   * Forgets the drain records of a spool's requests that are gone from it:
   * `entryIds` (just removed) and every one below `below` (the lowest id
   * still in the file: what a crash or a failure here left behind).
   */
  async forgetDrained(
    spoolId: string,
    entryIds: readonly number[],
    below: number,
  ): Promise<void> {
    await this.sql.rows(
      `DELETE FROM error_tracking.drained_spool_requests
        WHERE spool_id = $1 AND (request_id = ANY($2::bigint[]) OR request_id < $3)`,
      [spoolId, entryIds, below],
    );
  }

  private async ensurePartitions(
    batch: readonly IngestRequest[],
  ): Promise<void> {
    const missing = new Set<string>();
    for (const request of batch)
      for (const event of request.events) {
        const day = utcDay(event.receivedAt);
        if (!this.knownPartitions.has(day)) missing.add(day);
      }
    if (missing.size === 0) return;
    await createEventPartitions(this.sql, missing);
    for (const day of missing) this.knownPartitions.add(day);
  }

  private async flushOnce(
    batch: readonly IngestRequest[],
    { now, rateLimit }: FlushOptions,
  ): Promise<FlushResult> {
    const windowStart = new Date(
      Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS,
    );
    const events = batch.flatMap((request, index) =>
      request.events.map((event) => ({ index, request, event })),
    );
    const sessions = batch.flatMap((r, index) =>
      r.sessions.map((session) => ({ index, session })),
    );
    const buckets = batch.flatMap((r, index) =>
      r.buckets.map((bucket) => ({ index, bucket })),
    );
    const quotas = batch.flatMap((r, index) =>
      [...recordedQuantities(r)].map(([category, quantity]) => ({
        index,
        category,
        quantity,
      })),
    );
    const discards = batch.flatMap((r, index) =>
      r.discards.map((discard) => ({
        index,
        day: utcDay(r.receivedAt),
        discard,
      })),
    );
    const [row] = await this.sql.prepared<FlushRow & Record<string, unknown>>(
      'error_tracking_flush',
      FLUSH_SQL,
      flushValues({
        batch,
        events,
        sessions,
        buckets,
        discards,
        quotas,
        windowStart,
        rateLimit,
        now,
        flushId: randomUUID(),
      }),
    );
    const result = row as FlushRow;
    const verdicts: IngestVerdict[] = batch.map(() => 'ok');
    for (const [index, verdict] of result.rejected) verdicts[index] = verdict;
    const admitted = events.filter((e) => verdicts[e.index] === 'ok').length;
    return {
      verdicts,
      stored: result.stored,
      duplicates: admitted - result.stored,
      windows: result.windows.map(([keyId, category, quantity]) => ({
        keyId,
        category,
        quantity,
      })),
      reopenedIssues: result.reopened,
      alerts: result.alerts,
    };
  }
}
