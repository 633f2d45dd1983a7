import { Injectable, Logger } from '@nestjs/common';
import type {
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { isConnectionFailure } from '@quitanda/database';

import { SourceMapResolver } from '../../artifacts/source-map-resolver';
import type { IngestRequest, IngestVerdict } from '../ingest-request';
import { IngestionQueue } from '../ingestion-queue';
import { IngestionRepository } from '../ingestion.repository';
import type { FlushResult } from '../ingestion.repository';
import { CollectorSpool } from './collector-spool';
import type { ClaimedEntry } from './spool-store';
import { prepareSpooled } from './prepare-spooled';
import { decodeSpooled } from './spooled-request';
import type { SpooledRequest } from './spooled-request';

/** One drain flush at most: the live flush's own bounds. */
const MAX_DRAIN_REQUESTS = 512;
const MAX_DRAIN_BYTES = 32 * 1024 * 1024;
/** Between looks at an empty spool, or after the database refused a drain. */
export const DRAIN_IDLE_MS = 500;

type Pass = 'drained' | 'empty' | 'unavailable';

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Moves spooled requests into PostgreSQL, oldest first, through the
 * collector's own flush (source maps read for events spooled unresolved,
 * grouping, aggregates, alerts, rate-limit accounting); a request leaves
 * the spool only once its flush committed. The flush records each drained
 * request (spool identity and row id) in the same transaction, so one a
 * crash left in the spool after its commit is skipped whole when drained
 * again: its events, sessions and client reports are counted once. It
 * starts with the application (a spool left by a crash drains at once) and
 * keeps looking while the application runs, so a spool filled during an
 * outage drains as soon as the database answers.
 */
@Injectable()
export class SpoolDrainer
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly logger = new Logger('SpoolDrainer');
  private stopped = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  /** Waiting for a pass not yet started, and for the one running. */
  private nextPassWaiters: Array<(pass: Pass) => void> = [];

  constructor(
    private readonly spool: CollectorSpool,
    private readonly queue: IngestionQueue,
    private readonly sourceMaps: SourceMapResolver,
    private readonly repository: IngestionRepository,
  ) {}

  onApplicationBootstrap(): void {
    if (this.spool.enabled) this.loop = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
    // Requests the queue is still spooling need the file open.
    await this.queue.idle();
    this.spool.close();
  }

  /**
   * The loop's next pass, started at once and awaited whole (drain records
   * forgotten too): how a test waits for the running drainer without
   * polling. A pass already running does not count: it may have looked
   * before the caller spooled.
   */
  nextPass(): Promise<Pass> {
    return new Promise<Pass>((resolve) => {
      this.nextPassWaiters.push(resolve);
      this.wake?.();
    });
  }

  /** One pass: drains up to one flush's worth (for tests and the loop). */
  async drainOnce(): Promise<Pass> {
    const claimed = this.spool.claim(MAX_DRAIN_REQUESTS, MAX_DRAIN_BYTES);
    if (claimed.length === 0) return 'empty';
    const readable: Array<{ entry: ClaimedEntry; request: IngestRequest }> = [];
    for (const [index, entry] of claimed.entries()) {
      let spooled: SpooledRequest;
      try {
        spooled = decodeSpooled(entry.body);
      } catch (error) {
        this.park(entry.id, `unreadable: ${message(error)}`);
        continue;
      }
      try {
        // Events spooled unresolved read their source maps now.
        const prepared = await prepareSpooled(spooled, this.sourceMaps);
        readable.push({
          entry,
          request: {
            ...prepared,
            spooled: { spoolId: this.spool.identity, entryId: entry.id },
          },
        });
      } catch (error) {
        if (!isConnectionFailure(error)) {
          this.park(entry.id, `unpreparable: ${message(error)}`);
          continue;
        }
        this.spool.release(claimed.slice(index).map((c) => c.id));
        // What was prepared before the failure would meet it too.
        this.spool.release(readable.map((r) => r.entry.id));
        return 'unavailable';
      }
    }
    return this.commit(readable);
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const waiters = this.nextPassWaiters;
      this.nextPassWaiters = [];
      let pass: Pass;
      try {
        pass = await this.drainOnce();
      } catch (error) {
        this.logger.error({ err: error }, 'Draining the spool failed');
        pass = 'unavailable';
      }
      for (const resolve of waiters) resolve(pass);
      const awaited = this.nextPassWaiters.length > 0;
      if (pass !== 'drained' && !awaited && !this.stopped)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, DRAIN_IDLE_MS);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
    }
  }

  private async commit(
    batch: ReadonlyArray<{ entry: ClaimedEntry; request: IngestRequest }>,
  ): Promise<Pass> {
    if (batch.length === 0) return 'drained';
    let result: FlushResult;
    try {
      result = await this.queue.commitSpooled(batch.map((b) => b.request));
    } catch (error) {
      if (isConnectionFailure(error)) {
        this.spool.release(batch.map((b) => b.entry.id));
        return 'unavailable';
      }
      if (batch.length > 1) {
        // Isolate the request the database refuses from the others.
        for (const one of batch) await this.commit([one]);
        return 'drained';
      }
      const [only] = batch;
      if (only) this.park(only.entry.id, message(error));
      return 'drained';
    }
    // Committed. Should this removal fail (or the process die first), the
    // requests stay claimed and are drained again, and the flush skips them.
    const ids = batch.map((b) => b.entry.id);
    this.spool.remove(ids);
    await this.forgetDrained(ids);
    this.report(batch.length, result);
    return 'drained';
  }

  private report(requests: number, result: FlushResult): void {
    const count = (verdict: IngestVerdict) =>
      result.verdicts.filter((v) => v === verdict).length;
    const replayed = count('replayed');
    const refused = requests - count('ok') - replayed;
    // A key deleted (or tracking turned off) during the outage: its
    // requests are refused now, as they would have been live.
    if (refused > 0)
      this.logger.warn(
        `${refused} spooled request(s) refused by their project (key deleted or tracking disabled)`,
      );
    this.logger.log(
      `Drained ${requests} spooled request(s): ${result.stored} event(s) stored, ${result.duplicates} already there, ${replayed} request(s) committed before`,
    );
  }

  /**
   * Drops the drain records of requests now gone from the spool; one left
   * by a failure here goes with the next drain (it is below the lowest id
   * then), and meanwhile only costs its row.
   */
  private async forgetDrained(ids: readonly number[]): Promise<void> {
    try {
      await this.repository.forgetDrained(
        this.spool.identity,
        ids,
        this.spool.lowestId(),
      );
    } catch (error) {
      this.logger.warn({ err: error }, 'Forgetting drained requests failed');
    }
  }

  private park(id: number, reason: string): void {
    this.logger.error(
      `Spooled request ${id} set aside (the database refuses it): ${reason}`,
    );
    this.spool.park(id, reason);
  }
}
