import { Inject, Injectable } from '@nestjs/common';
import { METRICS_REGISTRY } from '@quitanda/kernel';
import { Counter, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';

/** Prometheus counters of the collector, on the gateway's registry. */
@Injectable()
export class IngestionMetrics {
  /** Requests by endpoint and outcome (`accepted` or the rejection reason). */
  readonly requests: Counter<'endpoint' | 'outcome'>;
  /** Events by outcome: stored, duplicate, rejected reasons. */
  readonly events: Counter<'outcome'>;
  /** Envelope items skipped and counted as discarded. */
  readonly discardedItems: Counter<'reason' | 'category'>;
  /** Attachments stored with their events, and their bytes. */
  readonly attachmentsStored: Counter;
  readonly attachmentBytesStored: Counter;
  readonly flushDuration: Histogram;
  readonly flushSize: Histogram;

  constructor(@Inject(METRICS_REGISTRY) registry: Registry) {
    this.requests = new Counter({
      name: 'error_tracking_ingest_requests_total',
      help: 'Collector requests by endpoint and outcome (accepted or rejection reason)',
      labelNames: ['endpoint', 'outcome'],
      registers: [registry],
    });
    this.events = new Counter({
      name: 'error_tracking_ingest_events_total',
      help: 'Events received by outcome (stored, duplicate, rate_limited, forbidden, unavailable, failed)',
      labelNames: ['outcome'],
      registers: [registry],
    });
    this.discardedItems = new Counter({
      name: 'error_tracking_ingest_discarded_items_total',
      help: 'Envelope items accepted but skipped, by reason and item type',
      labelNames: ['reason', 'category'],
      registers: [registry],
    });
    this.attachmentsStored = new Counter({
      name: 'error_tracking_attachments_stored_total',
      help: 'Event attachments stored with their events',
      registers: [registry],
    });
    this.attachmentBytesStored = new Counter({
      name: 'error_tracking_attachment_bytes_stored_total',
      help: 'Bytes of the event attachments stored with their events',
      registers: [registry],
    });
    this.flushDuration = new Histogram({
      name: 'error_tracking_flush_duration_seconds',
      help: 'Duration of one ingestion flush (group commit)',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers: [registry],
    });
    this.flushSize = new Histogram({
      name: 'error_tracking_flush_requests',
      help: 'Collector requests committed together in one flush',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512],
      registers: [registry],
    });
  }
}
