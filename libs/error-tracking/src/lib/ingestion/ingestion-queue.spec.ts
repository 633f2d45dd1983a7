import { FixedClock, TransportErrorKind } from '@quitanda/kernel';
import { Registry } from 'prom-client';

import { AlertSignal } from '../alerting/alert-signal';
import { TEST_OPTIONS } from '../../testing/error-tracking-test-module';
import type { IngestRequest } from './ingest-request';
import { IngestionQueue, UNAVAILABLE_COOLDOWN_MS } from './ingestion-queue';
import { IngestionMetrics } from './ingestion.metrics';
import type { FlushResult, IngestionRepository } from './ingestion.repository';

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

function ok(batch: readonly IngestRequest[]): FlushResult {
  return {
    verdicts: batch.map(() => 'ok'),
    stored: 0,
    duplicates: 0,
    windows: [],
    reopenedIssues: 0,
    alerts: 0,
  };
}

describe('IngestionQueue (group commit)', () => {
  let flushes: Deferred[];
  let queue: IngestionQueue;
  let clock: FixedClock;

  beforeEach(() => {
    flushes = [];
    clock = new FixedClock();
    const repository = {
      flush: (batch: readonly IngestRequest[]) =>
        new Promise<FlushResult>((resolve, reject) =>
          flushes.push({ batch, resolve, reject }),
        ),
    } as unknown as IngestionRepository;
    queue = new IngestionQueue(
      repository,
      new IngestionMetrics(new Registry()),
      clock,
      TEST_OPTIONS,
      new AlertSignal(),
    );
  });

  const settle = () => new Promise((resolve) => setImmediate(resolve));

  /** One request whose flush fails the way `pg` does when PostgreSQL cannot be reached. */
  async function loseTheDatabase(): Promise<void> {
    const refused = queue.submit(req(1));
    await settle();
    flushes[0]?.reject(
      Object.assign(new Error('connect ECONNREFUSED'), {
        code: 'ECONNREFUSED',
      }),
    );
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
    void queue.submit(req(1)).then(() => {
      acknowledged = true;
    });
    await settle();
    await settle();
    expect(acknowledged).toBe(false);
    flushes[0]?.resolve(ok(flushes[0].batch));
    await settle();
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
});
