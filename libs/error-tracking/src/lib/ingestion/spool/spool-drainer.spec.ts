import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { FixedClock } from '@quitanda/kernel';
import { Registry } from 'prom-client';

import { TEST_OPTIONS } from '../../../testing/error-tracking-test-module';
import { admittedAll } from '../../../testing/flush-result';
import type { SourceMapResolver } from '../../artifacts/source-map-resolver';
import type { JsonObject } from '../../sentry-event/event-json';
import type { IngestRequest } from '../ingest-request';
import type { IngestionQueue } from '../ingestion-queue';
import type { IngestionRepository } from '../ingestion.repository';
import { CollectorSpool } from './collector-spool';
import { SpoolDrainer } from './spool-drainer';

function req(keyId: number): IngestRequest {
  return {
    keyId,
    projectId: 1,
    receivedAt: new Date('2026-11-22T10:00:00.000Z'),
    events: [],
    sessions: [
      {
        sid: `s${keyId}`,
        release: 'r',
        environment: 'e',
        startedAt: new Date(0),
        seenAt: new Date(1),
        errored: false,
        crashed: false,
        abnormal: false,
      },
    ],
    buckets: [],
    discards: [],
  };
}

const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

describe('SpoolDrainer', () => {
  let dir: string;
  let spool: CollectorSpool;
  let commits: Array<readonly IngestRequest[]>;
  let fail:
    ((batch: readonly IngestRequest[]) => Error | undefined) | undefined;
  let drainer: SpoolDrainer;
  let unreachableMaps: boolean;
  let forgotten: Array<{ spoolId: string; ids: number[]; below: number }>;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quitanda-spool-'));
    spool = new CollectorSpool(
      {
        ...TEST_OPTIONS,
        spool: { path: join(dir, 's.sqlite'), maxBytes: 1_000_000, waitMs: 10 },
      },
      new FixedClock(),
      new Registry(),
    );
    commits = [];
    fail = undefined;
    const queue = {
      commitSpooled: async (batch: readonly IngestRequest[]) => {
        const error = fail?.(batch);
        if (error) throw error;
        commits.push(batch);
        return admittedAll(batch);
      },
      idle: async () => undefined,
    } as unknown as IngestionQueue;
    unreachableMaps = false;
    const sourceMaps = {
      resolve: async (raw: JsonObject) => {
        if (unreachableMaps) throw refused();
        return { ...raw, resolved: true };
      },
    } as unknown as SourceMapResolver;
    forgotten = [];
    const repository = {
      forgetDrained: async (spoolId: string, ids: number[], below: number) =>
        void forgotten.push({ spoolId, ids, below }),
    } as unknown as IngestionRepository;
    drainer = new SpoolDrainer(spool, queue, sourceMaps, repository);
  });

  afterEach(() => {
    spool.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits spooled requests in arrival order, each named by the spool and its row, then forgets them', async () => {
    await Promise.all([1, 2, 3].map((k) => spool.write(req(k))));
    expect(await drainer.drainOnce()).toBe('drained');
    expect(commits.map((b) => b.map((r) => r.keyId))).toEqual([[1, 2, 3]]);
    expect(commits[0]?.[0]?.sessions[0]?.seenAt).toEqual(new Date(1));
    expect(commits[0]?.map((r) => r.spooled)).toEqual(
      [1, 2, 3].map((entryId) => ({ spoolId: spool.identity, entryId })),
    );
    expect(spool.identity).toMatch(/^[0-9a-f-]{36}$/);
    // Their drain records go too, and any below the lowest row left.
    expect(forgotten).toEqual([
      { spoolId: spool.identity, ids: [1, 2, 3], below: 4 },
    ]);
    expect(await drainer.drainOnce()).toBe('empty');
    expect(spool.stats().bytes).toBe(0);
  });

  it('drains a committed request again when removing it failed, keeping it claimed meanwhile', async () => {
    await spool.write(req(1));
    jest.spyOn(spool, 'remove').mockImplementationOnce(() => {
      throw new Error('disk I/O error');
    });
    await expect(drainer.drainOnce()).rejects.toThrow('disk I/O error');
    expect(forgotten).toEqual([]);
    expect(await drainer.drainOnce()).toBe('drained');
    expect(commits.map((b) => b.map((r) => r.spooled?.entryId))).toEqual([
      [1],
      [1],
    ]);
    expect(spool.stats().bytes).toBe(0);
  });

  it('keeps everything while the database is unreachable, and drains it once it answers', async () => {
    await Promise.all([1, 2].map((k) => spool.write(req(k))));
    fail = refused;
    expect(await drainer.drainOnce()).toBe('unavailable');
    expect(await drainer.drainOnce()).toBe('unavailable');
    expect(commits).toEqual([]);
    fail = undefined;
    expect(await drainer.drainOnce()).toBe('drained');
    expect(commits.map((b) => b.map((r) => r.keyId))).toEqual([[1, 2]]);
    expect(spool.stats().bytes).toBe(0);
  });

  it('sets aside a request the database refuses for good, and drains the others', async () => {
    await Promise.all([1, 2, 3].map((k) => spool.write(req(k))));
    fail = (batch) =>
      batch.some((r) => r.keyId === 2)
        ? new Error('value too long')
        : undefined;
    expect(await drainer.drainOnce()).toBe('drained');
    expect(commits.map((b) => b.map((r) => r.keyId))).toEqual([[1], [3]]);
    fail = undefined;
    expect(await drainer.drainOnce()).toBe('empty');
    // Still there for an operator.
    expect(spool.stats().bytes).toBeGreaterThan(0);
  });

  it('resolves an event spooled unresolved when it drains, and keeps it while its maps cannot be read', async () => {
    const eventId = 'e'.repeat(32);
    await spool.write({
      ...req(1),
      events: [{ raw: { message: 'minified', exception: {} }, eventId }],
    });
    unreachableMaps = true;
    expect(await drainer.drainOnce()).toBe('unavailable');
    expect(commits).toEqual([]);
    unreachableMaps = false;
    expect(await drainer.drainOnce()).toBe('drained');
    const event = commits[0]?.[0]?.events[0];
    expect(event?.eventId).toBe(eventId);
    expect(event?.receivedAt).toEqual(req(1).receivedAt);
    expect(JSON.parse(event?.payloadJson ?? '{}')).toMatchObject({
      event_id: eventId,
      resolved: true,
    });
    expect(spool.stats().bytes).toBe(0);
  });
});
