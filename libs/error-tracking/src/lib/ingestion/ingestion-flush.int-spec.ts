import type { TestingModule } from '@nestjs/testing';
import type { Sql } from '@quitanda/database';
import { FixedClock } from '@quitanda/kernel';
import { defined, openTestDatabase, seededRandom } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import {
  errorTrackingTestModule,
  seedProject,
  sqlOf,
} from '../../testing/error-tracking-test-module';
import { ingestRequest } from '../../testing/ingest-request';
import { recountErrors } from '../../testing/recount';
import type { JsonObject } from '../sentry-event/event-json';
import { IngestionQueue } from './ingestion-queue';
import { IngestionModule } from './ingestion.module';

const SEED = 20261122;
// Three days before the clock: every timestamp is kept (none in the future).
const BASE = Date.parse('2026-11-19T00:00:00.000Z');

describe('ingestion flush (group commit against the database)', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let queue: IngestionQueue;
  let sql: Sql;
  const clock = new FixedClock('2026-11-22T10:00:00.000Z');

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await errorTrackingTestModule(
      database.url,
      { imports: [IngestionModule] },
      {},
      clock,
    );
    await module.init();
    queue = module.get(IngestionQueue);
    sql = sqlOf(module);
  });

  afterAll(async () => {
    await module?.close();
    await database?.close();
  });

  it(`keeps every error's aggregates equal to a recount of its events (seed ${SEED})`, async () => {
    const project = await seedProject(sql);
    const next = seededRandom(SEED);
    const pick = <T>(items: readonly T[]): T =>
      items[Math.floor(next() * items.length)] as T;
    const sent: JsonObject[] = [];
    for (let round = 0; round < 8; round++) {
      const batch: Array<Promise<unknown>> = [];
      for (let r = 0; r < 12; r++) {
        const raws: JsonObject[] = [];
        const size = 1 + Math.floor(next() * 4);
        for (let i = 0; i < size; i++) {
          // A duplicate of something already sent, now and then.
          if (sent.length > 0 && next() < 0.1) {
            raws.push(pick(sent));
            continue;
          }
          const fn = pick(['save', 'load', 'parse']);
          const raw: JsonObject = {
            event_id: Math.floor(next() * 2 ** 52)
              .toString(16)
              .padStart(32, '0'),
            timestamp: new Date(
              BASE + Math.floor(next() * 3 * 86_400_000),
            ).toISOString(),
            release: pick(['1.0.0', '1.1.0', null]),
            level: pick(['error', 'warning', 'fatal']),
            logger: pick(['app', 'worker', null]),
            user: pick([
              { id: 'u1' },
              { id: 'u2' },
              { email: 'e@x' },
              { ip_address: '10.0.0.1' },
              null,
            ]),
            exception:
              next() < 0.8
                ? [
                    {
                      type: 'Error',
                      value: 'x',
                      stacktrace: { frames: [{ function: fn, module: 'm' }] },
                    },
                  ]
                : undefined,
            message: 'fallback message',
            tags: pick([{ shard: 'a' }, { shard: 'b', level: 'sdk' }, {}]),
            contexts: pick([
              { os: { name: 'Linux', version: '6.1' } },
              { runtime: { name: 'node', version: 'v20.11.0' } },
              {},
            ]),
          };
          sent.push(raw);
          raws.push(raw);
        }
        batch.push(queue.submit(ingestRequest(project, raws, clock.now())));
      }
      await Promise.all(batch);
      // Resolve a random error between rounds: later events reopen it.
      if (next() < 0.5)
        await sql.rows(
          `UPDATE error_tracking.errors SET status = 'resolved'
            WHERE id = (SELECT id FROM error_tracking.errors WHERE project_id = $1 ORDER BY id LIMIT 1)`,
          [project.projectId],
        );
    }
    const distinct = new Set(sent.map((raw) => raw['event_id']));
    const [stored] = await sql.rows<{ n: number }>(
      'SELECT count(*)::int AS n FROM error_tracking.events WHERE project_id = $1',
      [project.projectId],
    );
    expect(defined(stored).n).toBe(distinct.size);
    await expect(recountErrors(sql, project.projectId)).resolves.toEqual([]);
  });

  it('commits concurrent requests together: fewer flushes than requests, each acknowledged', async () => {
    const project = await seedProject(sql);
    const flushes = jest.spyOn(
      (
        queue as unknown as {
          repository: { flush: (...args: unknown[]) => unknown };
        }
      ).repository,
      'flush',
    );
    const requests = Array.from({ length: 40 }, (_, i) =>
      ingestRequest(
        project,
        [
          {
            message: `concurrent ${['alpha', 'beta', 'gamma', 'delta'][i % 4]}`,
          },
        ],
        clock.now(),
      ),
    );
    const verdicts = await Promise.all(requests.map((r) => queue.submit(r)));
    expect(verdicts).toEqual(requests.map(() => 'ok'));
    expect(flushes.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(flushes.mock.calls.length).toBeLessThan(requests.length);
    flushes.mockRestore();
    const [row] = await sql.rows<{ errors: number; events: string }>(
      `SELECT count(*)::int AS errors, sum(count)::text AS events
         FROM error_tracking.errors WHERE project_id = $1`,
      [project.projectId],
    );
    expect(row).toEqual({ errors: 4, events: '40' });
  });

  it('refuses events of a key deleted after it was cached, inside the flush', async () => {
    const project = await seedProject(sql);
    await sql.rows('DELETE FROM error_tracking.client_keys WHERE id = $1', [
      project.keyId,
    ]);
    await expect(
      queue.submit(
        ingestRequest(project, [{ message: 'too late' }], clock.now()),
      ),
    ).resolves.toBe('forbidden');
    const [row] = await sql.rows<{ n: number }>(
      'SELECT count(*)::int AS n FROM error_tracking.events WHERE project_id = $1',
      [project.projectId],
    );
    expect(defined(row).n).toBe(0);
  });

  it('keeps errors of earlier grouping versions collecting, never splitting them', async () => {
    const project = await seedProject(sql);
    const raise = (
      line: string,
      lineno: number,
      fn = 'validate',
    ): JsonObject => ({
      platform: 'python',
      exception: [
        {
          type: 'ValueError',
          value: line,
          stacktrace: {
            frames: [
              {
                module: 'shop.orders',
                function: fn,
                lineno,
                context_line: `raise ValueError("${line}")`,
                in_app: true,
              },
            ],
          },
        },
      ],
    });
    // Stored as earlier versions did: errors with version 1's and 2's hashes.
    const storedAs = async (version: 1 | 2, event: JsonObject) => {
      const request = ingestRequest(project, [event], clock.now());
      const prepared = defined(request.events[0]);
      const fingerprint =
        version === 1
          ? prepared.olderFingerprint
          : prepared.previousFingerprint;
      await queue.submit({
        ...request,
        events: [
          {
            ...prepared,
            fingerprint: defined(fingerprint ?? undefined),
            groupingVersion: version,
            previousFingerprint:
              version === 2 ? (prepared.olderFingerprint ?? null) : null,
            olderFingerprint: null,
          },
        ],
      });
    };
    await storedAs(1, raise('order has no items', 10));
    await storedAs(2, raise('out of stock', 40, 'reserve'));
    // Version 2 tells these two throws apart; version 1 did not.
    await queue.submit(
      ingestRequest(
        project,
        [raise('order has no items', 10), raise('order total is negative', 12)],
        clock.now(),
      ),
    );
    await queue.submit(
      ingestRequest(
        project,
        [raise('out of stock', 40, 'reserve')],
        clock.now(),
      ),
    );
    // A crash no earlier version saw gets an error of this version.
    for (let i = 0; i < 2; i++)
      await queue.submit(
        ingestRequest(project, [raise('new', 30, 'refund')], clock.now()),
      );
    const errors = await sql.rows<{ grouping_version: number; count: string }>(
      `SELECT grouping_version, count::text FROM error_tracking.errors
        WHERE project_id = $1 ORDER BY grouping_version`,
      [project.projectId],
    );
    expect(errors).toEqual([
      { grouping_version: 1, count: '3' },
      { grouping_version: 2, count: '2' },
      { grouping_version: 3, count: '2' },
    ]);
    await expect(recountErrors(sql, project.projectId)).resolves.toEqual([]);
  });
});
