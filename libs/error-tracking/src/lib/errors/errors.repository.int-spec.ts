import type { TestingModule } from '@nestjs/testing';
import type { Sql } from '@quitanda/database';
import { FixedClock } from '@quitanda/kernel';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import {
  errorTrackingTestModule,
  seedProject,
  sqlOf,
} from '../../testing/error-tracking-test-module';
import { ingestRequest } from '../../testing/ingest-request';
import { ErrorTrackingCoreModule } from '../core/error-tracking-core.module';
import { IngestionQueue } from '../ingestion/ingestion-queue';
import { IngestionModule } from '../ingestion/ingestion.module';
import type { EventPosition } from './error.types';
import type { SearchTerm } from './sentry-search';
import { ErrorsRepository } from './errors.repository';

const NOW = new Date('2026-11-22T10:00:00.000Z');

/** A search of free text alone. */
function text(words: string): SearchTerm[] {
  return [{ kind: 'text', text: words }];
}

function eventId(n: number): string {
  return n.toString(16).padStart(32, '0');
}

describe("ErrorsRepository: an error's events one at a time and searched", () => {
  let database: TestDatabase;
  let module: TestingModule;
  let sql: Sql;
  let repository: ErrorsRepository;
  let errorId = '';

  /**
   * Events 1..7 of one error, a minute apart by time except 4 and 5, which
   * share one (their ids order them); the odd ones mention "checkout".
   */
  beforeAll(async () => {
    database = await openTestDatabase();
    module = await errorTrackingTestModule(
      database.url,
      { imports: [IngestionModule, ErrorTrackingCoreModule] },
      {},
      new FixedClock(NOW),
    );
    await module.init();
    sql = sqlOf(module);
    repository = module.get(ErrorsRepository);
    const project = await seedProject(sql);
    const minute = (n: number) => NOW.getTime() / 1000 - 600 + 60 * n;
    const events = [6, 2, 7, 4, 1, 5, 3].map((n) => ({
      event_id: eventId(n),
      timestamp: n === 5 ? minute(4) : minute(n),
      fingerprint: ['one-error'],
      transaction: n % 2 === 1 ? `POST /checkout/${n}` : `GET /search/${n}`,
      message: n === 6 ? '100% off_sale' : `event ${n}`,
    }));
    await module
      .get(IngestionQueue)
      .submit(ingestRequest(project, events, NOW));
    const [row] = await sql.rows<{ id: string }>(
      'SELECT id::text AS id FROM error_tracking.errors WHERE project_id = $1',
      [project.projectId],
    );
    errorId = row?.id ?? '';
  });

  afterAll(async () => {
    await module?.close();
    await database?.close();
  });

  async function positionOf(n: number): Promise<EventPosition> {
    const [row] = await sql.rows<{ timestamp: Date }>(
      'SELECT timestamp FROM error_tracking.events WHERE event_id = $1::uuid',
      [`00000000-0000-0000-0000-${eventId(n).slice(20)}`],
    );
    return { timestamp: row?.timestamp as Date, eventId: eventId(n) };
  }

  it('steps from each event to its oldest, older, newer and latest, ties by id', async () => {
    const around = async (n: number) =>
      repository.eventNeighbours(errorId, await positionOf(n));
    await expect(around(4)).resolves.toEqual({
      oldest: eventId(1),
      older: eventId(3),
      newer: eventId(5),
      latest: eventId(7),
    });
    await expect(around(5)).resolves.toMatchObject({
      older: eventId(4),
      newer: eventId(6),
    });
    await expect(around(1)).resolves.toMatchObject({
      older: null,
      newer: eventId(2),
    });
    await expect(around(7)).resolves.toMatchObject({
      older: eventId(6),
      newer: null,
    });
  });

  it('lists newest first after a position', async () => {
    const page = await repository.listEvents(errorId, 3, await positionOf(5));
    expect(page.map((e) => e.eventId)).toEqual([4, 3, 2].map(eventId));
  });

  it('searches at most scanMax events a call, going on from the last one read', async () => {
    const seen: string[] = [];
    const reads: Array<EventPosition | undefined> = [];
    let after: EventPosition | undefined;
    for (;;) {
      reads.push(after);
      const { hits, scanEdge } = await repository.searchEvents(errorId, {
        terms: text('checkout'),
        limit: 10,
        scanMax: 3,
        after,
      });
      seen.push(...hits.map((e) => e.eventId));
      if (!scanEdge) break;
      after = scanEdge;
    }
    // 7, 6, 5 | 4, 3, 2 | 1: three reads of at most three events.
    expect(seen).toEqual([7, 5, 3, 1].map(eventId));
    expect(reads.map((p) => p?.eventId)).toEqual([
      undefined,
      eventId(5),
      eventId(2),
    ]);
  });

  it('stops at limit matches within a read, and takes %, _ and quotes literally', async () => {
    const { hits } = await repository.searchEvents(errorId, {
      terms: text('checkout'),
      limit: 2,
      scanMax: 100,
    });
    expect(hits.map((e) => e.eventId)).toEqual([7, 5].map(eventId));
    const literal = await repository.searchEvents(errorId, {
      terms: text('100% off_'),
      limit: 10,
      scanMax: 100,
    });
    expect(literal.hits.map((e) => e.eventId)).toEqual([eventId(6)]);
    const tagged = await repository.searchEvents(errorId, {
      terms: [
        {
          kind: 'tag',
          key: 'transaction',
          value: 'GET /search/*',
          negated: false,
        },
        { kind: 'text', text: 'event' },
      ],
      limit: 10,
      scanMax: 100,
    });
    expect(tagged.hits.map((e) => e.eventId)).toEqual([4, 2].map(eventId));
    for (const search of ['100%_off', "x' OR '1'='1"])
      await expect(
        repository.searchEvents(errorId, {
          terms: text(search),
          limit: 10,
          scanMax: 100,
        }),
      ).resolves.toEqual({ hits: [], scanEdge: undefined });
  });
});
