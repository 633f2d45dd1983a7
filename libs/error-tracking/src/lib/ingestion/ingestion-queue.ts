import { Inject, Injectable, Logger } from '@nestjs/common';
import type {
  BeforeApplicationShutdown,
  OnApplicationShutdown,
} from '@nestjs/common';
import { isConnectionFailure } from '@quitanda/database';
import { CLOCK, TransportError, TransportErrorKind } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { AlertSignal } from '../alerting/alert-signal';
import { ERROR_TRACKING_OPTIONS } from '../common/error-tracking.constants';
import type { ErrorTrackingModuleOptions } from '../common/error-tracking.options';
import type { IngestRequest, IngestVerdict } from './ingest-request';
import { IngestionMetrics } from './ingestion.metrics';
import { IngestionRepository } from './ingestion.repository';
import type { FlushResult } from './ingestion.repository';
import { recordedQuantities } from './rate-limit-categories';
import { RateLimiter } from './rate-limiter';
import { CollectorSpool } from './spool/collector-spool';
import type { SpooledRequest } from './spool/spooled-request';

interface Waiter {
  readonly request: IngestRequest;
  resolve(verdict: IngestVerdict): void;
  reject(error: unknown): void;
}

/** Counts every category of a drained request, refuses none (past 2^31 - 1). */
const COUNT_ONLY_RATE_LIMIT = 2_147_483_647;

/** Most requests / events one flush commits; the rest go to the next. */
const MAX_FLUSH_REQUESTS = 512;
const MAX_FLUSH_EVENTS = 2_000;
const MAX_FLUSH_BYTES = 32 * 1024 * 1024;
/** After a connection failure, refuse at once for this long (503). */
export const UNAVAILABLE_COOLDOWN_MS = 1_000;
const RETRY_AFTER_SECONDS = 5;

function errorCause(error: unknown): unknown {
  return error instanceof Error ? error.cause : undefined;
}

function unavailable(): TransportError {
  return new TransportError(
    TransportErrorKind.ServiceUnavailable,
    'The database is unavailable; nothing was stored. Retry later.',
    [],
    RETRY_AFTER_SECONDS,
  );
}

/**
 * Group commit. A request is acknowledged only once the transaction holding
 * its data has committed. One flush runs at a time; requests that arrive
 * while it runs wait for the next, which starts the moment the previous one
 * commits (no timer): under load, flushes grow with concurrency instead of
 * capping throughput at connections / interval.
 *
 * With a spool (a database server, not the embedded one): a request whose
 * commit is not seen within `waitMs` (a stalled database), or that meets a
 * connection failure or the cool-down after one, is written to the spool
 * instead and acknowledged from there (`spooled`); only a full spool
 * answers 503. A request spooled while its flush was in flight may still be
 * committed by that flush: its events are deduplicated by event id when
 * drained.
 */
@Injectable()
export class IngestionQueue
  implements BeforeApplicationShutdown, OnApplicationShutdown
{
  private readonly logger = new Logger('IngestionQueue');
  private pending: Waiter[] = [];
  private running: Promise<void> | undefined;
  private unavailableUntil = 0;
  private readonly spoolWaitMs: number | undefined;
  /** Spool writes under way (shutdown waits for them). */
  private readonly spooling = new Set<Promise<unknown>>();
  readonly rateLimiter: RateLimiter;

  constructor(
    private readonly repository: IngestionRepository,
    private readonly metrics: IngestionMetrics,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ERROR_TRACKING_OPTIONS) options: ErrorTrackingModuleOptions,
    private readonly alertSignal: AlertSignal,
    private readonly spool: CollectorSpool,
  ) {
    this.rateLimiter = new RateLimiter(options.rateLimitPerMinute);
    this.spoolWaitMs = spool.enabled ? options.spool?.waitMs : undefined;
  }

  /** Whether a request's wait in `submit` is bounded here (by the spool). */
  get boundsItsWait(): boolean {
    return this.spoolWaitMs !== undefined;
  }

  /**
   * How long a request may still wait for the database before it is
   * spooled: `undefined` without a spool (unbounded here), 0 during the
   * cool-down after a connection failure.
   */
  waitBudgetMs(): number | undefined {
    if (this.spoolWaitMs === undefined) return undefined;
    return this.clock.now().getTime() < this.unavailableUntil
      ? 0
      : this.spoolWaitMs;
  }

  /**
   * Resolves with the flush's verdict once the request is durably stored
   * (or refused); with a spool, spooled once `waitMs` (default: the whole
   * wait) passes first.
   */
  submit(request: IngestRequest, waitMs?: number): Promise<IngestVerdict> {
    if (this.clock.now().getTime() < this.unavailableUntil)
      return this.spoolOrRefuse(request);
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      const settle = (finish: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        finish();
      };
      const toSpool = () =>
        settle(() => {
          this.spoolOrRefuse(request).then(resolve, reject);
        });
      const waiter: Waiter = {
        request,
        resolve: (verdict) => settle(() => resolve(verdict)),
        reject: (error) =>
          isConnectionFailure(error) ? toSpool() : settle(() => reject(error)),
      };
      if (this.spoolWaitMs !== undefined)
        timer = setTimeout(() => {
          const queued = this.pending.indexOf(waiter);
          if (queued >= 0) this.pending.splice(queued, 1);
          toSpool();
        }, waitMs ?? this.spoolWaitMs);
      this.pending.push(waiter);
      if (!this.running) this.running = this.drain();
    });
  }

  /**
   * Spools a request the database could not serve before its commit (its
   * source maps could not be read): `cause`, a connection failure, starts
   * the cool-down as a failed flush does. 503 without a spool.
   */
  spoolNow(request: SpooledRequest, cause: unknown): Promise<IngestVerdict> {
    if (isConnectionFailure(cause) || isConnectionFailure(errorCause(cause)))
      this.coolDown();
    return this.spoolOrRefuse(request);
  }

  /**
   * Commits requests read back from the spool: the same flush, except that
   * they count toward their keys' rate limits without being refused by
   * them (they were acknowledged already).
   */
  commitSpooled(requests: readonly IngestRequest[]): Promise<FlushResult> {
    return this.commit(
      requests,
      this.rateLimiter.limit > 0 ? COUNT_ONLY_RATE_LIMIT : 0,
    );
  }

  /** Waits until everything submitted so far is flushed (or spooled). */
  async idle(): Promise<void> {
    while (this.running || this.spooling.size > 0)
      await (this.running ?? Promise.all(this.spooling));
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.idle();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.idle();
  }

  private async drain(): Promise<void> {
    // Let the requests of this turn of the event loop join the first flush.
    await new Promise((resolve) => setImmediate(resolve));
    try {
      while (this.pending.length > 0) {
        const batch = this.takeBatch();
        await this.flush(batch);
      }
    } finally {
      this.running = undefined;
    }
  }

  private takeBatch(): Waiter[] {
    let events = 0;
    let bytes = 0;
    let count = 0;
    for (const waiter of this.pending) {
      const size = waiter.request.events.reduce(
        (n, e) => n + e.payloadJson.length,
        0,
      );
      if (
        count > 0 &&
        (count >= MAX_FLUSH_REQUESTS ||
          events + waiter.request.events.length > MAX_FLUSH_EVENTS ||
          bytes + size > MAX_FLUSH_BYTES)
      )
        break;
      count += 1;
      events += waiter.request.events.length;
      bytes += size;
    }
    return this.pending.splice(0, count);
  }

  /** One flush and its bookkeeping (metrics, rate-limit view, alerts). */
  private async commit(
    requests: readonly IngestRequest[],
    rateLimit: number,
  ): Promise<FlushResult> {
    const started = process.hrtime.bigint();
    const now = this.clock.now();
    const result = await this.repository.flush(requests, { now, rateLimit });
    this.rateLimiter.observe(result.windows, now);
    this.metrics.flushDuration.observe(
      Number(process.hrtime.bigint() - started) / 1e9,
    );
    this.metrics.flushSize.observe(requests.length);
    if (result.alerts > 0) this.alertSignal.raise();
    this.metrics.events.inc({ outcome: 'stored' }, result.stored);
    if (result.duplicates > 0)
      this.metrics.events.inc({ outcome: 'duplicate' }, result.duplicates);
    return result;
  }

  /**
   * The answer for a request the database cannot take now: spooled, or
   * 503 without a spool or with a full one.
   */
  private spoolOrRefuse(request: SpooledRequest): Promise<IngestVerdict> {
    const spooling = this.spoolOnce(request);
    // Tracked until settled, for shutdown; its outcome is the caller's.
    const untrack = () => {
      this.spooling.delete(tracked);
    };
    const tracked: Promise<void> = spooling.then(untrack, untrack);
    this.spooling.add(tracked);
    return spooling;
  }

  private async spoolOnce(request: SpooledRequest): Promise<IngestVerdict> {
    if (!(await this.spool.write(request))) {
      this.metrics.events.inc(
        { outcome: 'unavailable' },
        request.events.length,
      );
      throw unavailable();
    }
    // Counted here as far as this replica can tell; the flush of the
    // drained request counts it in the shared windows.
    this.rateLimiter.count(
      request.keyId,
      recordedQuantities(request),
      this.clock.now(),
    );
    this.metrics.events.inc({ outcome: 'spooled' }, request.events.length);
    return 'spooled';
  }

  private async flush(batch: Waiter[]): Promise<void> {
    try {
      const result = await this.commit(
        batch.map((w) => w.request),
        this.rateLimiter.limit,
      );
      batch.forEach((waiter, index) => {
        const verdict = result.verdicts[index] ?? 'ok';
        if (verdict !== 'ok')
          this.metrics.events.inc(
            { outcome: verdict },
            waiter.request.events.length,
          );
        waiter.resolve(verdict);
      });
    } catch (error) {
      if (isConnectionFailure(error)) {
        this.coolDown();
        // Everything still queued would meet the same fate.
        const failed = [...batch, ...this.pending.splice(0)];
        if (this.spoolWaitMs !== undefined)
          for (const waiter of failed) waiter.reject(error);
        else this.fail(failed, unavailable(), 'unavailable');
        return;
      }
      if (batch.length > 1) {
        // Isolate a request that breaks the flush from the others.
        for (const waiter of batch) await this.flush([waiter]);
        return;
      }
      this.logger.error({ err: error }, 'Ingestion flush failed');
      this.fail(batch, error, 'failed');
    }
  }

  private coolDown(): void {
    this.unavailableUntil =
      this.clock.now().getTime() + UNAVAILABLE_COOLDOWN_MS;
  }

  private fail(batch: Waiter[], error: unknown, outcome: string): void {
    for (const waiter of batch) {
      this.metrics.events.inc({ outcome }, waiter.request.events.length);
      waiter.reject(error);
    }
  }
}
