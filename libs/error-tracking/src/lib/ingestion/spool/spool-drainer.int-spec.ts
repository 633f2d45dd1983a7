import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { TestingModule } from '@nestjs/testing';
import type { Sql } from '@quitanda/database';
import { FixedClock } from '@quitanda/kernel';
import { defined, openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import {
  errorTrackingTestModule,
  seedProject,
  sqlOf,
} from '../../../testing/error-tracking-test-module';
import { ingestRequest } from '../../../testing/ingest-request';
import { recountErrors } from '../../../testing/recount';
import type { IngestRequest } from '../ingest-request';
import { IngestionQueue } from '../ingestion-queue';
import { IngestionModule } from '../ingestion.module';
import { CollectorSpool } from './collector-spool';
import { SpoolDrainer } from './spool-drainer';

const RATE_LIMIT = 2;

function eventId(n: number): string {
  return n.toString(16).padStart(32, '0');
}

describe('spool drainer (into PostgreSQL)', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let dir: string;
  let spool: CollectorSpool;
  let sql: Sql;
  const clock = new FixedClock('2026-11-22T10:00:00.000Z');

  beforeAll(async () => {
    database = await openTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'quitanda-spool-'));
    module = await errorTrackingTestModule(
      database.url,
      { imports: [IngestionModule] },
      {
        rateLimitPerMinute: RATE_LIMIT,
        spool: {
          path: join(dir, 'collector.sqlite'),
          maxBytes: 10_000_000,
          waitMs: 5_000,
        },
      },
      clock,
    );
    spool = module.get(CollectorSpool);
    await module.init();
    sql = sqlOf(module);
  });

  afterAll(async () => {
    await module?.close();
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * The drainer runs on its own from `init()`: wait for its passes (each
   * whole, drain records forgotten too) until one finds the spool empty.
   */
  async function drained(): Promise<void> {
    const drainer = module.get(SpoolDrainer);
    for (let passes = 0; passes < 50; passes += 1)
      if ((await drainer.nextPass()) === 'empty') return;
    throw new Error('the spool did not drain');
  }

  const errorEvent = (n: number, fn: string) => ({
    event_id: eventId(n),
    timestamp: '2026-11-22T09:00:00.000Z',
    exception: [
      {
        type: 'Error',
        value: 'x',
        stacktrace: { frames: [{ function: fn, module: 'm' }] },
      },
    ],
  });

  it('stores every spooled event once, with its error aggregates right, and empties the spool', async () => {
    const project = await seedProject(sql);
    const requests: IngestRequest[] = [
      ingestRequest(
        project,
        [errorEvent(1, 'save'), errorEvent(2, 'save')],
        clock.now(),
      ),
      ingestRequest(project, [errorEvent(3, 'load')], clock.now()),
      // The same event twice (an SDK's retry): stored once.
      ingestRequest(project, [errorEvent(3, 'load')], clock.now()),
      ingestRequest(project, [errorEvent(4, 'save')], clock.now()),
    ];
    // One was committed live after all (its flush outlived the wait).
    await module.get(IngestionQueue).submit(defined(requests[3]));
    const written = await Promise.all(requests.map((r) => spool.write(r)));
    expect(written).toEqual([true, true, true, true]);

    await drained();

    const stored = await sql.rows<{ event_id: string }>(
      'SELECT event_id FROM error_tracking.events WHERE project_id = $1 ORDER BY event_id',
      [project.projectId],
    );
    expect(stored.map((row) => row.event_id.replace(/-/g, ''))).toEqual([
      eventId(1),
      eventId(2),
      eventId(3),
      eventId(4),
    ]);
    const counts = await sql.rows<{ count: number }>(
      'SELECT count::int FROM error_tracking.errors WHERE project_id = $1 ORDER BY count',
      [project.projectId],
    );
    expect(counts.map((row) => row.count)).toEqual([1, 3]);
    await expect(recountErrors(sql, project.projectId)).resolves.toEqual([]);
    expect(spool.stats()).toEqual({ events: 0, bytes: 0, oldestAgeSeconds: 0 });
  });

  it('counts drained events toward the key rate limit without refusing any (they were acknowledged)', async () => {
    const project = await seedProject(sql);
    await Promise.all(
      Array.from({ length: RATE_LIMIT + 2 }, (_, n) =>
        spool.write(
          ingestRequest(project, [errorEvent(100 + n, 'burst')], clock.now()),
        ),
      ),
    );
    await drained();

    const [events] = await sql.rows<{ n: number }>(
      'SELECT count(*)::int AS n FROM error_tracking.events WHERE project_id = $1',
      [project.projectId],
    );
    expect(defined(events).n).toBe(RATE_LIMIT + 2);
    const windows = await sql.rows<{ quantity: number }>(
      `SELECT quantity FROM error_tracking.rate_limit_windows
        WHERE key_id = $1 AND category = 'error'`,
      [project.keyId],
    );
    expect(windows.map((w) => w.quantity)).toEqual([RATE_LIMIT + 2]);
  });

  it('drops the requests of a key deleted meanwhile, as the live flush would, and keeps draining', async () => {
    const gone = await seedProject(sql);
    const kept = await seedProject(sql);
    // Accepted from the key cache while the database was away.
    await sql.rows(
      'UPDATE error_tracking.client_keys SET active = false WHERE id = $1',
      [gone.keyId],
    );
    await spool.write(
      ingestRequest(gone, [errorEvent(200, 'gone')], clock.now()),
    );
    await spool.write(
      ingestRequest(kept, [errorEvent(201, 'kept')], clock.now()),
    );
    await drained();

    const stored = await sql.rows<{ project_id: number }>(
      'SELECT project_id FROM error_tracking.events WHERE project_id = ANY($1)',
      [[gone.projectId, kept.projectId]],
    );
    expect(stored.map((row) => row.project_id)).toEqual([kept.projectId]);
    expect(spool.stats().events).toBe(0);
  });

  it('counts a request drained again after its commit once: its event, session aggregates and client reports', async () => {
    const project = await seedProject(sql);
    const started = new Date('2026-11-22T09:59:00.000Z');
    await spool.write({
      ...ingestRequest(project, [errorEvent(300, 'once')], clock.now()),
      sessions: [
        {
          sid: 'session-once',
          release: 'app@1',
          environment: 'production',
          startedAt: started,
          seenAt: clock.now(),
          errored: true,
          crashed: false,
          abnormal: false,
        },
      ],
      buckets: [
        {
          release: 'app@1',
          environment: 'production',
          started,
          exited: 5,
          errored: 2,
          crashed: 1,
          abnormal: 0,
        },
      ],
      discards: [
        {
          source: 'client',
          reason: 'queue_overflow',
          category: 'error',
          quantity: 7,
        },
      ],
    });
    // A record a crash left behind after its request was removed.
    await sql.rows(
      `INSERT INTO error_tracking.drained_spool_requests (spool_id, request_id, drained_at)
       VALUES ($1, 1, now())`,
      [spool.identity],
    );
    // Committed, then not removed from the spool: as a crash between the
    // two would leave it, it is drained again.
    const removal = jest.spyOn(spool, 'remove').mockImplementationOnce(() => {
      throw new Error('disk I/O error');
    });
    await drained();
    expect(removal).toHaveBeenCalledTimes(2);

    const [counts] = await sql.rows<Record<string, number>>(
      `SELECT
         (SELECT count(*)::int FROM error_tracking.events WHERE project_id = $1) AS events,
         (SELECT sum(count)::int FROM error_tracking.errors WHERE project_id = $1) AS error_count,
         (SELECT count(*)::int FROM error_tracking.release_sessions WHERE project_id = $1) AS sessions,
         (SELECT sum(exited + errored + crashed)::int
            FROM error_tracking.release_session_buckets WHERE project_id = $1) AS bucketed,
         (SELECT sum(quantity)::int FROM error_tracking.discarded_events WHERE project_id = $1) AS discarded,
         (SELECT sum(quantity)::int FROM error_tracking.rate_limit_windows WHERE key_id = $2) AS rate_counted`,
      [project.projectId, project.keyId],
    );
    expect(counts).toEqual({
      events: 1,
      error_count: 1,
      sessions: 1,
      bucketed: 8,
      discarded: 7,
      // The event, the session and the bucket, and the report's entry.
      rate_counted: 4,
    });
    // Gone from the spool, its drain record goes too, and the older one.
    const records = await sql.rows(
      'SELECT 1 FROM error_tracking.drained_spool_requests WHERE spool_id = $1',
      [spool.identity],
    );
    expect(records).toEqual([]);
  });
});
