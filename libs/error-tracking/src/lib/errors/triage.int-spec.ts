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
import { recountErrors } from '../../testing/recount';
import { AccessLevel } from '../common/error-tracking.constants';
import { ErrorTrackingError } from '../common/error-tracking.errors';
import { IngestionQueue } from '../ingestion/ingestion-queue';
import { IngestionModule } from '../ingestion/ingestion.module';
import { RetentionModule } from '../retention/retention.module';
import { RetentionService } from '../retention/retention.service';
import type { ProjectAccess } from '../projects/project.types';
import type { JsonObject } from '../sentry-event/event-json';
import { ErrorMergeService, MAX_MERGED_ERRORS } from './error-merge.service';
import { ErrorsService } from './errors.service';

const MINUTE = 60_000;

describe('triage: ignore until a condition, merge (against the database)', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let queue: IngestionQueue;
  let errors: ErrorsService;
  let merges: ErrorMergeService;
  let sql: Sql;
  const clock = new FixedClock('2026-11-22T10:00:00.000Z');
  let eventNumber = 0;

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await errorTrackingTestModule(
      database.url,
      { imports: [IngestionModule, RetentionModule] },
      {},
      clock,
    );
    await module.init();
    queue = module.get(IngestionQueue);
    errors = module.get(ErrorsService);
    merges = module.get(ErrorMergeService);
    sql = sqlOf(module);
  });

  afterAll(async () => {
    await module?.close();
    await database?.close();
  });

  /** The error's counts of its events' `user` tag values. */
  function userTagsOf(
    errorId: string,
  ): Promise<Array<{ value: string; count: string }>> {
    return sql.rows(
      `SELECT value, count::text FROM error_tracking.error_tags
        WHERE error_id = $1 AND key = 'user' ORDER BY value`,
      [errorId],
    );
  }

  function event(message: string, user?: string): JsonObject {
    eventNumber += 1;
    return {
      event_id: eventNumber.toString(16).padStart(32, '0'),
      timestamp: new Date(clock.now().getTime() - eventNumber).toISOString(),
      message,
      release: `1.0.${eventNumber % 3}`,
      ...(user ? { user: { id: user } } : {}),
    };
  }

  async function project(): Promise<{
    key: { projectId: number; keyId: number };
    access: ProjectAccess;
  }> {
    const key = await seedProject(sql);
    return {
      key,
      access: projectAccess(AccessLevel.Developer, { id: key.projectId }),
    };
  }

  async function send(
    key: { projectId: number; keyId: number },
    ...raws: JsonObject[]
  ): Promise<void> {
    await queue.submit(ingestRequest(key, raws, clock.now()));
  }

  async function errorOf(projectId: number, message: string) {
    const [row] = await sql.rows<{
      id: string;
      status: string;
      count: string;
      ignored_until: Date | null;
      ignored_until_count: string | null;
      ignored_until_user_count: number | null;
    }>(
      `SELECT id::text, status, count::text, ignored_until,
              ignored_until_count::text, ignored_until_user_count
         FROM error_tracking.errors WHERE project_id = $1 AND title = $2`,
      [projectId, message],
    );
    if (!row) throw new Error(`no error titled ${message}`);
    return row;
  }

  async function statusAndCount(
    errorId: string,
  ): Promise<{ status: string; count: string } | undefined> {
    const [row] = await sql.rows<{ status: string; count: string }>(
      `SELECT status, count::text FROM error_tracking.errors WHERE id = $1`,
      [errorId],
    );
    return row;
  }

  async function alertsOf(errorId: string): Promise<string[]> {
    const rows = await sql.rows<{ trigger: string }>(
      `SELECT trigger FROM error_tracking.alerts WHERE error_id = $1 ORDER BY id`,
      [errorId],
    );
    return rows.map((row) => row.trigger);
  }

  it('reopens an error ignored until N more events on the event that reaches N, with no alert', async () => {
    const { key, access } = await project();
    await send(key, event('quota exceeded'));
    const { id } = await errorOf(key.projectId, 'quota exceeded');
    await errors.updateStatus(access, id, 'ignored', { events: 2 });
    expect(await errorOf(key.projectId, 'quota exceeded')).toMatchObject({
      status: 'ignored',
      ignored_until_count: '3',
    });
    await send(key, event('quota exceeded'));
    expect((await errorOf(key.projectId, 'quota exceeded')).status).toBe(
      'ignored',
    );
    await send(key, event('quota exceeded'));
    expect(await errorOf(key.projectId, 'quota exceeded')).toMatchObject({
      status: 'unresolved',
      count: '3',
      ignored_until_count: null,
    });
    expect(await alertsOf(id)).toEqual(['new']);
  });

  it('reopens an error ignored until N more users only when N users it had not seen arrive', async () => {
    const { key, access } = await project();
    await send(key, event('slow checkout', 'ana'));
    const { id } = await errorOf(key.projectId, 'slow checkout');
    await errors.updateStatus(access, id, 'ignored', { users: 2 });
    // The same user again, and an event without a user: no new user.
    await send(key, event('slow checkout', 'ana'), event('slow checkout'));
    await send(key, event('slow checkout', 'bo'));
    expect((await errorOf(key.projectId, 'slow checkout')).status).toBe(
      'ignored',
    );
    await send(key, event('slow checkout', 'cy'));
    expect(await errorOf(key.projectId, 'slow checkout')).toMatchObject({
      status: 'unresolved',
      ignored_until_user_count: null,
    });
  });

  it('reopens an error ignored for a duration when it is read after the time, and on an event after it', async () => {
    const { key, access } = await project();
    await send(key, event('cache miss storm'), event('disk nearly full'));
    const read = await errorOf(key.projectId, 'cache miss storm');
    const flushed = await errorOf(key.projectId, 'disk nearly full');
    await errors.updateStatusOfMany(
      access,
      { ids: [read.id, flushed.id] },
      'ignored',
      {
        minutes: 30,
      },
    );
    const ignored = await errors.list(access, {
      status: 'ignored',
      sort: 'last_seen',
      limit: 10,
    });
    expect(ignored.items.map((item) => item.error.id).sort()).toEqual(
      [read.id, flushed.id].sort(),
    );
    expect(ignored.items[0]?.error.ignoredUntil).toEqual(
      new Date(clock.now().getTime() + 30 * MINUTE),
    );
    clock.advance(30 * MINUTE);
    try {
      // The flush sees the time passed before any read does.
      await send(key, event('disk nearly full'));
      expect((await errorOf(key.projectId, 'disk nearly full')).status).toBe(
        'unresolved',
      );
      expect((await errorOf(key.projectId, 'cache miss storm')).status).toBe(
        'ignored',
      );
      const { error } = await errors.get(access, read.id);
      expect(error.status).toBe('unresolved');
      expect(error.ignoredUntil).toBeNull();
      expect(await alertsOf(flushed.id)).toEqual(['new']);
    } finally {
      clock.advance(-30 * MINUTE);
    }
  });

  it('keeps an error ignored for good, and drops a condition when the status changes', async () => {
    const { key, access } = await project();
    await send(key, event('deprecated call'));
    const { id } = await errorOf(key.projectId, 'deprecated call');
    await errors.updateStatus(access, id, 'ignored', { events: 1 });
    await errors.updateStatus(access, id, 'ignored');
    await send(key, event('deprecated call'), event('deprecated call'));
    expect(await errorOf(key.projectId, 'deprecated call')).toMatchObject({
      status: 'ignored',
      ignored_until_count: null,
    });
  });

  it('merges errors: events, counts, users, hours and tag counts move; their future events land in the kept one with no new alert', async () => {
    const { key, access } = await project();
    await send(key, event('kept', 'ana'), event('kept', 'bo'));
    clock.advance(-2 * 3_600_000);
    try {
      await send(key, event('first', 'bo'), event('first', 'cy'));
    } finally {
      clock.advance(2 * 3_600_000);
    }
    await send(key, event('second'), event('second', 'dee'), event('second'));
    const kept = await errorOf(key.projectId, 'kept');
    const first = await errorOf(key.projectId, 'first');
    const second = await errorOf(key.projectId, 'second');
    await errors.updateStatus(access, second.id, 'resolved');

    const merged = await merges.merge(access, kept.id, [first.id, second.id]);
    expect(merged).toMatchObject({ id: kept.id, count: 7, userCount: 4 });
    expect(merged.firstSeen.getTime()).toBeLessThan(
      clock.now().getTime() - 3_600_000,
    );
    // The recount covers the tag counts: each value's events summed per key.
    await expect(recountErrors(sql, key.projectId)).resolves.toEqual([]);
    expect(await userTagsOf(kept.id)).toEqual([
      { value: 'id:ana', count: '1' },
      { value: 'id:bo', count: '2' },
      { value: 'id:cy', count: '1' },
      { value: 'id:dee', count: '1' },
    ]);
    await expect(
      sql.rows(
        'SELECT 1 FROM error_tracking.error_tags WHERE error_id = ANY($1::bigint[])',
        [[first.id, second.id]],
      ),
    ).resolves.toEqual([]);
    const left = await sql.rows<{ id: string }>(
      'SELECT id::text FROM error_tracking.errors WHERE project_id = $1',
      [key.projectId],
    );
    expect(left).toEqual([{ id: kept.id }]);

    // Their alerts came along (pending deliveries describe the kept error).
    const alerted = await alertsOf(kept.id);
    expect(alerted).toEqual(['new', 'new']);
    // Both merged groups keep arriving: the kept error collects them.
    await send(key, event('first', 'eve'), event('second', 'ana'));
    await expect(recountErrors(sql, key.projectId)).resolves.toEqual([]);
    expect(await statusAndCount(kept.id)).toEqual({
      count: '9',
      status: 'unresolved',
    });
    expect(await alertsOf(kept.id)).toEqual(alerted);
  });

  it('sends a merged group to the kept error even when a flush re-created its error while the merge committed', async () => {
    const { key, access } = await project();
    await send(key, event('keeper'), event('racer'));
    const keeper = await errorOf(key.projectId, 'keeper');
    const racer = await errorOf(key.projectId, 'racer');
    const [{ fingerprint }] = (await sql.rows<{ fingerprint: string }>(
      'SELECT fingerprint::text FROM error_tracking.errors WHERE id = $1',
      [racer.id],
    )) as [{ fingerprint: string }];
    await merges.merge(access, keeper.id, [racer.id]);
    // What a flush whose snapshot predates the merge's commit inserts.
    await sql.rows(
      `INSERT INTO error_tracking.errors
         (project_id, fingerprint, grouping_version, title, level, status, count,
          user_count, first_seen, last_seen, last_event_id, created_at, updated_at)
       VALUES ($1, $2, 3, 'racer', 'error', 'unresolved', 0, 0, now(), now(),
               gen_random_uuid(), now(), now())`,
      [key.projectId, fingerprint],
    );
    await send(key, event('racer'));
    expect(await statusAndCount(keeper.id)).toEqual({
      count: '3',
      status: 'unresolved',
    });
  });

  it('merges again into another error: earlier merges follow', async () => {
    const { key, access } = await project();
    await send(key, event('a'), event('b'), event('c'));
    const a = await errorOf(key.projectId, 'a');
    const b = await errorOf(key.projectId, 'b');
    const c = await errorOf(key.projectId, 'c');
    await merges.merge(access, b.id, [a.id]);
    await merges.merge(access, c.id, [b.id]);
    await send(key, event('a'));
    await expect(recountErrors(sql, key.projectId)).resolves.toEqual([]);
    expect(await statusAndCount(c.id)).toEqual({
      count: '4',
      status: 'unresolved',
    });
    expect(await statusAndCount(a.id)).toBeUndefined();
  });

  it('forgets the merged fingerprints when retention removes the kept error', async () => {
    const { key, access } = await project();
    await send(key, event('old kept'), event('old merged'));
    const kept = await errorOf(key.projectId, 'old kept');
    const merged = await errorOf(key.projectId, 'old merged');
    await merges.merge(access, kept.id, [merged.id]);
    const routes = () =>
      sql.rows(
        'SELECT 1 FROM error_tracking.error_merges WHERE project_id = $1',
        [key.projectId],
      );
    expect(await routes()).toHaveLength(1);
    clock.advance(91 * 86_400_000);
    try {
      await module.get(RetentionService).run(true);
    } finally {
      clock.advance(-91 * 86_400_000);
    }
    expect(await statusAndCount(kept.id)).toBeUndefined();
    expect(await routes()).toEqual([]);
  });

  it('refuses a merge with an unknown or foreign error, or too many, and changes nothing', async () => {
    const { key, access } = await project();
    const other = await project();
    await send(key, event('alpha'), event('beta'));
    await send(other.key, event('gamma'));
    const alpha = await errorOf(key.projectId, 'alpha');
    const beta = await errorOf(key.projectId, 'beta');
    const gamma = await errorOf(other.key.projectId, 'gamma');
    const refusal = (ids: string[]) =>
      merges.merge(access, alpha.id, ids).then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(await refusal([beta.id, gamma.id])).toMatchObject({
      message: '404 Error Not Found',
    });
    expect(await refusal([])).toBeInstanceOf(ErrorTrackingError);
    expect(await refusal([alpha.id])).toBeInstanceOf(ErrorTrackingError);
    const tooMany = Array.from({ length: MAX_MERGED_ERRORS + 1 }, (_, i) =>
      String(10_000_000 + i),
    );
    expect(await refusal(tooMany)).toMatchObject({
      message: `error_ids has more than ${MAX_MERGED_ERRORS} errors`,
    });
    expect((await errorOf(key.projectId, 'beta')).count).toBe('1');
    expect((await errorOf(other.key.projectId, 'gamma')).count).toBe('1');
  });

  it('refuses a bulk change of all matching errors beyond its bound, and changes nothing', async () => {
    const { key, access } = await project();
    await send(
      key,
      event('timeout in cart'),
      event('timeout in search'),
      event('timeout at login'),
    );
    const change = (limit: number) =>
      errors.updateStatusOfMany(
        access,
        {
          filter: { search: 'timeout', status: 'unresolved' },
          limit,
          refuseBeyond: true,
        },
        'resolved',
      );
    await expect(change(2)).rejects.toMatchObject({
      message: 'more than 2 errors match: narrow the search',
    });
    expect((await errorOf(key.projectId, 'timeout in cart')).status).toBe(
      'unresolved',
    );
    expect((await change(3)).errors).toHaveLength(3);
    expect((await errorOf(key.projectId, 'timeout at login')).status).toBe(
      'resolved',
    );
  });
});
