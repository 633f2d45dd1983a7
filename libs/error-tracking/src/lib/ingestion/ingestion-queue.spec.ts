import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { FixedClock, TransportErrorKind } from '@quitanda/kernel';
import { Registry } from 'prom-client';

import { AlertSignal } from '../alerting/alert-signal';
import { TEST_OPTIONS } from '../../testing/error-tracking-test-module';
import { admittedAll } from '../../testing/flush-result';
import { ingestRequest } from '../../testing/ingest-request';
import type { IngestRequest } from './ingest-request';
import { IngestionQueue, UNAVAILABLE_COOLDOWN_MS } from './ingestion-queue';
import { IngestionMetrics } from './ingestion.metrics';
import type { FlushResult, IngestionRepository } from './ingestion.repository';
import { CollectorSpool } from './spool/collector-spool';
import { encodeSpooled } from './spool/spooled-request';

function req(keyId: number): IngestRequest {
  return {
    keyId,
    projectId: 1,
    receivedAt: new Date(),
    events: [],
    sessions: [],
    buckets: [],
    discards: [],
  };
}

interface Deferred {
  batch: readonly IngestRequest[];
  resolve(result: FlushResult): void;
  reject(error: unknown): void;
}

const ok = admittedAll;

const connectionRefused = () =>
  Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

describe('IngestionQueue (group commit)', () => {
  let flushes: Deferred[];
  let queue: IngestionQueue;
  let clock: FixedClock;

  function newQueue(options = TEST_OPTIONS): {
    queue: IngestionQueue;
    spool: CollectorSpool;
  } {
    const repository = {
      flush: (batch: readonly IngestRequest[]) =>
        new Promise<FlushResult>((resolve, reject) =>
          flushes.push({ batch, resolve, reject }),
        ),
    } as unknown as IngestionRepository;
    const registry = new Registry();
    const spool = new CollectorSpool(options, clock, registry);
    return {
      queue: new IngestionQueue(
        repository,
        new IngestionMetrics(registry),
        clock,
        options,
        new AlertSignal(),
        spool,
      ),
      spool,
    };
  }

  beforeEach(() => {
    flushes = [];
    clock = new FixedClock();
    queue = newQueue().queue;
  });

  const settle = () => new Promise((resolve) => setImmediate(resolve));

  /** One request whose flush fails the way `pg` does when PostgreSQL cannot be reached. */
  async function loseTheDatabase(): Promise<void> {
    const refused = queue.submit(req(1));
    await settle();
    flushes[0]?.reject(connectionRefused());
    await expect(refused).rejects.toMatchObject({
      kind: TransportErrorKind.ServiceUnavailable,
      retryAfterSeconds: expect.any(Number),
    });
  }

  it('starts one flush for what arrived together, and the next as soon as it commits, with everything that arrived meanwhile', async () => {
    const first = [queue.submit(req(1)), queue.submit(req(2))];
    await settle();
    expect(flushes).toHaveLength(1);
    expect(flushes[0]?.batch.map((r) => r.keyId)).toEqual([1, 2]);

    // Arrive while the first flush runs: no second flush yet.
    const second = [
      queue.submit(req(3)),
      queue.submit(req(4)),
      queue.submit(req(5)),
    ];
    await settle();
    expect(flushes).toHaveLength(1);

    flushes[0]?.resolve(ok(flushes[0].batch));
    await expect(Promise.all(first)).resolves.toEqual(['ok', 'ok']);
    await settle();
    expect(flushes).toHaveLength(2);
    expect(flushes[1]?.batch.map((r) => r.keyId)).toEqual([3, 4, 5]);
    flushes[1]?.resolve(ok(flushes[1].batch));
    await expect(Promise.all(second)).resolves.toEqual(['ok', 'ok', 'ok']);
  });

  it('acknowledges nothing before the commit', async () => {
    let acknowledged = false;
    const submitted = queue.submit(req(1)).then(() => {
      acknowledged = true;
    });
    await settle();
    await settle();
    expect(acknowledged).toBe(false);
    flushes[0]?.resolve(ok(flushes[0].batch));
    await submitted;
    expect(acknowledged).toBe(true);
  });

  it('passes per-request verdicts through', async () => {
    const results = [queue.submit(req(1)), queue.submit(req(2))];
    await settle();
    flushes[0]?.resolve({
      ...ok(flushes[0].batch),
      verdicts: ['ok', 'rate_limited'],
    });
    await expect(Promise.all(results)).resolves.toEqual(['ok', 'rate_limited']);
  });

  it('answers 503 to the batch and at once to newcomers when the database is unreachable', async () => {
    await loseTheDatabase();
    await expect(queue.submit(req(2))).rejects.toMatchObject({
      kind: TransportErrorKind.ServiceUnavailable,
    });
    expect(flushes).toHaveLength(1);
  });

  it('tries the database again once the outage cool-down has passed', async () => {
    await loseTheDatabase();

    clock.advance(UNAVAILABLE_COOLDOWN_MS - 1);
    await expect(queue.submit(req(2))).rejects.toMatchObject({
      kind: TransportErrorKind.ServiceUnavailable,
    });
    expect(flushes).toHaveLength(1);

    clock.advance(1);
    const retried = queue.submit(req(3));
    await settle();
    expect(flushes).toHaveLength(2);
    expect(flushes[1]?.batch.map((r) => r.keyId)).toEqual([3]);
    flushes[1]?.resolve(ok(flushes[1].batch));
    await expect(retried).resolves.toBe('ok');
  });

  it('isolates a request that breaks a flush from the others', async () => {
    const settled = Promise.allSettled([
      queue.submit(req(1)),
      queue.submit(req(2)),
      queue.submit(req(3)),
    ]);
    await settle();
    flushes[0]?.reject(new Error('value too long'));
    for (let i = 1; i <= 3; i++) {
      await settle();
      const flush = flushes[i];
      if (flush?.batch[0]?.keyId === 2)
        flush.reject(new Error('value too long'));
      else flush?.resolve(ok(flush.batch));
    }
    expect((await settled).map((s) => s.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
  });

  describe('with a spool (a database server)', () => {
    let dir: string;
    let spool: CollectorSpool;
    const WAIT_MS = 30;
    /** One event each, all of one size. */
    const withEvent = (keyId: number) =>
      ingestRequest(
        { projectId: 1, keyId },
        [{ event_id: keyId.toString(16).padStart(32, '0'), message: 'm' }],
        new Date('2026-11-22T10:00:00.000Z'),
      );

    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'quitanda-spool-'));
      ({ queue, spool } = newQueue({
        ...TEST_OPTIONS,
        rateLimitPerMinute: 10,
        spool: {
          path: join(dir, 'collector.sqlite'),
          // Room for two of these requests, not three.
          maxBytes: 2 * Buffer.byteLength(encodeSpooled(withEvent(1))),
          waitMs: WAIT_MS,
        },
      }));
    });

    afterEach(() => {
      spool.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('spools a request whose commit is not seen in time (a stalled database) and acknowledges it from there', async () => {
      const started = performance.now();
      await expect(queue.submit(withEvent(1))).resolves.toBe('spooled');
      expect(performance.now() - started).toBeGreaterThanOrEqual(WAIT_MS - 1);
      expect(flushes).toHaveLength(1);
      expect(spool.stats().events).toBe(1);
      // Counted toward the key's limit as far as this process can tell.
      expect(
        queue.rateLimiter.exceeded(1, new Map([['error', 10]]), clock.now()),
      ).toEqual(['error']);
    });

    it('spools the batch and the queue on a connection failure, and newcomers during the cool-down', async () => {
      const first = queue.submit(withEvent(1));
      await settle();
      flushes[0]?.reject(connectionRefused());
      await expect(first).resolves.toBe('spooled');
      await expect(queue.submit(withEvent(2))).resolves.toBe('spooled');
      expect(flushes).toHaveLength(1);
      expect(spool.stats().events).toBe(2);
    });

    it('answers 503 once the spool is full, and keeps nothing of that request', async () => {
      await loseTheDatabaseWithSpool();
      await expect(queue.submit(withEvent(2))).resolves.toBe('spooled');
      const bytes = spool.stats().bytes;
      await expect(queue.submit(withEvent(3))).rejects.toMatchObject({
        kind: TransportErrorKind.ServiceUnavailable,
        retryAfterSeconds: expect.any(Number),
      });
      expect(spool.stats()).toMatchObject({ events: 2, bytes });
    });

    it('spools a request its source maps could not be read for at once; a connection failure starts the cool-down', async () => {
      expect(queue.waitBudgetMs()).toBe(WAIT_MS);
      const unresolved = {
        ...req(1),
        events: [{ raw: { message: 'm' }, eventId: 'a'.repeat(32) }],
      };
      await expect(queue.spoolNow(unresolved, new Error('slow'))).resolves.toBe(
        'spooled',
      );
      expect(queue.waitBudgetMs()).toBe(WAIT_MS);
      await expect(
        queue.spoolNow(unresolved, connectionRefused()),
      ).resolves.toBe('spooled');
      expect(queue.waitBudgetMs()).toBe(0);
      await expect(queue.submit(withEvent(2))).resolves.toBe('spooled');
      expect(flushes).toHaveLength(0);
      clock.advance(UNAVAILABLE_COOLDOWN_MS);
      expect(queue.waitBudgetMs()).toBe(WAIT_MS);
    });

    async function loseTheDatabaseWithSpool(): Promise<void> {
      const first = queue.submit(withEvent(1));
      await settle();
      flushes[0]?.reject(connectionRefused());
      await expect(first).resolves.toBe('spooled');
    }
  });
});
