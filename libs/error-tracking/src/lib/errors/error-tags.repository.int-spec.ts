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
import { projectAccess } from '../../testing/records';
import { AccessLevel } from '../common/error-tracking.constants';
import { IngestionQueue } from '../ingestion/ingestion-queue';
import { IngestionModule } from '../ingestion/ingestion.module';
import type { JsonObject } from '../sentry-event/event-json';
import { ErrorMergeService } from './error-merge.service';
import { ErrorTagsRepository } from './error-tags.repository';

const HOUR = 3_600_000;

describe('error tag values: counts and first and last sightings (against the database)', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let queue: IngestionQueue;
  let tags: ErrorTagsRepository;
  let merges: ErrorMergeService;
  let sql: Sql;
  const clock = new FixedClock('2026-11-29T12:00:00.000Z');
  let eventNumber = 0;

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
    tags = module.get(ErrorTagsRepository);
    merges = module.get(ErrorMergeService);
    sql = sqlOf(module);
  });

  afterAll(async () => {
    await module?.close();
    await database?.close();
  });

  /** An event of `message`, `hoursAgo` before the clock, tagged `region`. */
  function event(
    message: string,
    hoursAgo: number,
    region: string,
  ): JsonObject {
    eventNumber += 1;
    return {
      event_id: eventNumber.toString(16).padStart(32, '0'),
      timestamp: new Date(
        clock.now().getTime() - hoursAgo * HOUR,
      ).toISOString(),
      message,
      tags: { region },
    };
  }

  const at = (hoursAgo: number) =>
    new Date(clock.now().getTime() - hoursAgo * HOUR);

  async function errorIdOf(projectId: number, message: string) {
    const [row] = await sql.rows<{ id: string }>(
      `SELECT id::text FROM error_tracking.errors WHERE project_id = $1 AND title = $2`,
      [projectId, message],
    );
    if (!row) throw new Error(`no error titled ${message}`);
    return row.id;
  }

  // A value's last sighting is its latest event's time or arrival,
  // whichever is later (retention expires events by both): here, the
  // clock's now, when every event arrives.
  it('keeps each value its earliest event and latest sighting across flushes, whatever order they come in', async () => {
    const key = await seedProject(sql);
    await queue.submit(
      ingestRequest(
        key,
        [event('Boom', 3, 'eu'), event('Boom', 1, 'eu')],
        clock.now(),
      ),
    );
    // An older event of the value, and a new value, in a later flush.
    await queue.submit(
      ingestRequest(
        key,
        [event('Boom', 5, 'eu'), event('Boom', 2, 'us')],
        clock.now(),
      ),
    );
    const id = await errorIdOf(key.projectId, 'Boom');

    const values = await tags.values(id, 'region', 10);
    expect(values).toEqual([
      { value: 'eu', count: 3, share: 0.75, firstSeen: at(5), lastSeen: at(0) },
      { value: 'us', count: 1, share: 0.25, firstSeen: at(2), lastSeen: at(0) },
    ]);
    expect(await tags.values(id, 'region', 1)).toEqual([values[0]]);
    expect(await tags.values(id, 'nothing', 10)).toEqual([]);
    const [region] = (await tags.distribution(id, 100, 10)).filter(
      (k) => k.key === 'region',
    );
    expect(region?.topValues).toEqual(values);
  });

  it('reads a value counted before first sightings were kept as first seen with its error, and keeps it so', async () => {
    const key = await seedProject(sql);
    await queue.submit(
      ingestRequest(
        key,
        [event('Old', 6, 'eu'), event('Old', 4, 'ap')],
        clock.now(),
      ),
    );
    const id = await errorIdOf(key.projectId, 'Old');
    // As a row written before the column: no first sighting.
    await sql.rows(
      `UPDATE error_tracking.error_tags SET first_seen = NULL
        WHERE error_id = $1 AND key = 'region' AND value = 'ap'`,
      [id],
    );
    await queue.submit(
      ingestRequest(key, [event('Old', 1, 'ap')], clock.now()),
    );

    const values = await tags.values(id, 'region', 10);
    // The error was first seen 6 hours ago: the earliest "ap" can have been.
    expect(values.find((v) => v.value === 'ap')).toMatchObject({
      count: 2,
      firstSeen: at(6),
      lastSeen: at(0),
    });
    const [row] = await sql.rows<{ first_seen: Date | null }>(
      `SELECT first_seen FROM error_tracking.error_tags
        WHERE error_id = $1 AND key = 'region' AND value = 'ap'`,
      [id],
    );
    expect(row?.first_seen).toBeNull();
  });

  it('gives a merged value the earliest sighting of the errors merged', async () => {
    const key = await seedProject(sql);
    await queue.submit(
      ingestRequest(
        key,
        [
          event('Kept', 2, 'eu'),
          event('Gone', 8, 'eu'),
          event('Gone', 7, 'sa'),
        ],
        clock.now(),
      ),
    );
    const kept = await errorIdOf(key.projectId, 'Kept');
    const gone = await errorIdOf(key.projectId, 'Gone');
    const access = projectAccess(AccessLevel.Developer, { id: key.projectId });
    await merges.merge(access, kept, [gone]);

    expect(await tags.values(kept, 'region', 10)).toEqual([
      {
        value: 'eu',
        count: 2,
        share: 2 / 3,
        firstSeen: at(8),
        lastSeen: at(0),
      },
      {
        value: 'sa',
        count: 1,
        share: 1 / 3,
        firstSeen: at(7),
        lastSeen: at(0),
      },
    ]);
  });
});
