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
import { RateLimiter } from './rate-limiter';

interface Waiter {
  readonly request: IngestRequest;
  resolve(verdict: IngestVerdict): void;
  reject(error: unknown): void;
}

/** Most requests / events one flush commits; the rest go to the next. */
const MAX_FLUSH_REQUESTS = 512;
const MAX_FLUSH_EVENTS = 2_000;
const MAX_FLUSH_BYTES = 32 * 1024 * 1024;
/** After a connection failure, refuse at once for this long (503). */
export const UNAVAILABLE_COOLDOWN_MS = 1_000;
const RETRY_AFTER_SECONDS = 5;

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
 */
@Injectable()
export class IngestionQueue
  implements BeforeApplicationShutdown, OnApplicationShutdown
{
  private readonly logger = new Logger('IngestionQueue');
  private pending: Waiter[] = [];
  private running: Promise<void> | undefined;
  private unavailableUntil = 0;
  readonly rateLimiter: RateLimiter;

  constructor(
    private readonly repository: IngestionRepository,
    private readonly metrics: IngestionMetrics,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ERROR_TRACKING_OPTIONS) options: ErrorTrackingModuleOptions,
    private readonly alertSignal: AlertSignal,
  ) {
    this.rateLimiter = new RateLimiter(options.rateLimitPerMinute);
  }

  /** Resolves with the flush's verdict once the request is durably stored (or refused). */
  submit(request: IngestRequest): Promise<IngestVerdict> {
    if (this.clock.now().getTime() < this.unavailableUntil)
      return Promise.reject(unavailable());
    return new Promise((resolve, reject) => {
      this.pending.push({ request, resolve, reject });
      if (!this.running) this.running = this.drain();
    });
  }

  /** Waits until everything submitted so far is flushed. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
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

  private async flush(batch: Waiter[]): Promise<void> {
    const started = process.hrtime.bigint();
    const now = this.clock.now();
    try {
      const result = await this.repository.flush(
        batch.map((w) => w.request),
        { now, rateLimit: this.rateLimiter.limit },
      );
      this.rateLimiter.observe(result.windows, now);
      this.metrics.flushDuration.observe(
        Number(process.hrtime.bigint() - started) / 1e9,
      );
      this.metrics.flushSize.observe(batch.length);
      if (result.alerts > 0) this.alertSignal.raise();
      this.metrics.events.inc({ outcome: 'stored' }, result.stored);
      if (result.duplicates > 0)
        this.metrics.events.inc({ outcome: 'duplicate' }, result.duplicates);
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
        this.unavailableUntil =
          this.clock.now().getTime() + UNAVAILABLE_COOLDOWN_MS;
        this.fail(batch, unavailable(), 'unavailable');
        // Everything still queued would meet the same fate.
        this.fail(this.pending.splice(0), unavailable(), 'unavailable');
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

  private fail(batch: Waiter[], error: unknown, outcome: string): void {
    for (const waiter of batch) {
      this.metrics.events.inc({ outcome }, waiter.request.events.length);
      waiter.reject(error);
    }
  }
}
