import { Inject, Injectable, Optional } from '@nestjs/common';
import { CLOCK, METRICS_REGISTRY, READINESS_DETAILS } from '@quitanda/kernel';
import type { Clock, ReadinessDetails } from '@quitanda/kernel';
import { Gauge } from 'prom-client';
import type { Registry } from 'prom-client';

import { ERROR_TRACKING_OPTIONS } from '../../common/error-tracking.constants';
import type { ErrorTrackingModuleOptions } from '../../common/error-tracking.options';
import { SpoolStore } from './spool-store';
import type { ClaimedEntry, SpoolStats } from './spool-store';
import { encodeSpooled } from './spooled-request';
import type { SpooledRequest } from './spooled-request';

interface PendingWrite {
  readonly body: string;
  readonly events: number;
  resolve(stored: boolean): void;
  reject(error: unknown): void;
}

const EMPTY: SpoolStats = { events: 0, bytes: 0, oldestAgeSeconds: 0 };

/**
 * The gateway's side of the spool: collector requests the database did not
 * take in time are written here (the writes of one turn of the event loop
 * in one synced transaction: SQLite's own group commit) and read back by
 * the `SpoolDrainer`. Disabled (every call a no-op, `write` refuses) when
 * the options carry no spool: the embedded database.
 */
@Injectable()
export class CollectorSpool {
  private readonly store?: SpoolStore;
  private pending: PendingWrite[] = [];

  constructor(
    @Inject(ERROR_TRACKING_OPTIONS) options: ErrorTrackingModuleOptions,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(METRICS_REGISTRY) registry: Registry,
    @Optional() @Inject(READINESS_DETAILS) readiness?: ReadinessDetails,
  ) {
    if (options.spool)
      this.store = new SpoolStore(options.spool.path, options.spool.maxBytes);
    readiness?.add('spool', () => {
      const { events, bytes, oldestAgeSeconds } = this.stats();
      return { events, bytes, oldest_age_seconds: oldestAgeSeconds };
    });
    const events: Gauge = new Gauge({
      name: 'quitanda_collector_spool_events',
      help: 'Events in the collector spool, waiting for the database',
      registers: [registry],
      collect: () => events.set(this.stats().events),
    });
    const bytes: Gauge = new Gauge({
      name: 'quitanda_collector_spool_bytes',
      help: 'Payload bytes in the collector spool (bounded by ERROR_TRACKING_SPOOL_MAX_BYTES)',
      registers: [registry],
      collect: () => bytes.set(this.stats().bytes),
    });
  }

  get enabled(): boolean {
    return this.store !== undefined;
  }

  /** The spool file's identity (see `SpoolStore.identity`); '' when disabled. */
  get identity(): string {
    return this.store?.identity ?? '';
  }

  /**
   * Resolves `true` once the request is on disk, `false` when the spool is
   * full or disabled (nothing of it kept).
   */
  write(request: SpooledRequest): Promise<boolean> {
    if (!this.store) return Promise.resolve(false);
    return new Promise((resolve, reject) => {
      if (this.pending.length === 0) setImmediate(() => this.commit());
      this.pending.push({
        body: encodeSpooled(request),
        events: request.events.length,
        resolve,
        reject,
      });
    });
  }

  stats(): SpoolStats {
    // A readiness check or a scrape that outlives shutdown finds it closed.
    if (!this.store?.isOpen) return EMPTY;
    return this.store.stats(this.clock.now().getTime());
  }

  claim(maxEntries: number, maxBytes: number): ClaimedEntry[] {
    return this.store?.claim(maxEntries, maxBytes) ?? [];
  }

  remove(ids: readonly number[]): void {
    this.store?.remove(ids);
  }

  release(ids: readonly number[]): void {
    this.store?.release(ids);
  }

  park(id: number, reason: string): void {
    this.store?.park(id, reason);
  }

  lowestId(): number {
    return this.store?.lowestId() ?? 1;
  }

  close(): void {
    this.store?.close();
  }

  private commit(): void {
    const writes = this.pending;
    this.pending = [];
    try {
      const stored = (this.store as SpoolStore).append(
        writes,
        this.clock.now().getTime(),
      );
      writes.forEach((write, index) => write.resolve(stored[index] ?? false));
    } catch (error) {
      for (const write of writes) write.reject(error);
    }
  }
}
