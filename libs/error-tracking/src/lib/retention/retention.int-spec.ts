import type { TestingModule } from '@nestjs/testing';
import type { Sql } from '@quitanda/database';
import { FixedClock } from '@quitanda/kernel';
import { defined, openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import {
  errorTrackingTestModule,
  seedProject,
  sqlOf,
} from '../../testing/error-tracking-test-module';
import { ingestRequest } from '../../testing/ingest-request';
import { recountErrors } from '../../testing/recount';
import type { JsonObject } from '../sentry-event/event-json';
import { IngestionQueue } from '../ingestion/ingestion-queue';
import { IngestionModule } from '../ingestion/ingestion.module';
import { listEventPartitionDays } from '../persistence/event-partitions';
import { ArtifactsRepository } from '../artifacts/artifacts.repository';
import { AttachmentsRepository } from '../attachments/attachments.repository';
import { AttachmentIntake } from '../ingestion/attachment-intake';
import { RETENTION_BATCH, RetentionRepository } from './retention.repository';
import { RetentionModule } from './retention.module';
import { RetentionService } from './retention.service';

const DAY = 86_400_000;
const T0 = Date.parse('2026-08-01T12:00:00.000Z');

describe('retention (fake clock)', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let queue: IngestionQueue;
  let retention: RetentionService;
  let sql: Sql;
  const clock = new FixedClock(new Date(T0));

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await errorTrackingTestModule(
      database.url,
      { imports: [IngestionModule, RetentionModule] },
      { retentionDays: 90, retentionIntervalMinutes: 0 },
      clock,
    );
    await module.init();
    queue = module.get(IngestionQueue);
    retention = module.get(RetentionService);
    sql = sqlOf(module);
  });

  afterAll(async () => {
    await module?.close();
    await database?.close();
  });

  async function ingest(
    project: { projectId: number; keyId: number },
    raws: JsonObject[],
  ) {
    const verdict = await queue.submit(
      ingestRequest(project, raws, clock.now()),
    );
    expect(verdict).toBe('ok');
  }

  function event(
    group: string,
    at: number,
    extra: JsonObject = {},
  ): JsonObject {
    return {
      // Native: the culprit is the bare function, naming each group.
      platform: 'native',
      timestamp: new Date(at).toISOString(),
      exception: [
        {
          type: 'E',
          value: group,
          stacktrace: { frames: [{ function: group }] },
        },
      ],
      ...extra,
    };
  }

  async function errorsOf(projectId: number) {
    return sql.rows<{
      culprit: string;
      count: string;
      user_count: number;
      first_seen: Date;
      first_release: string | null;
    }>(
      `SELECT culprit, count::text, user_count, first_seen, first_release
         FROM error_tracking.errors WHERE project_id = $1 ORDER BY culprit`,
      [projectId],
    );
  }

  it('drops expired events (whole partitions where it can), expired errors, and keeps survivors exact', async () => {
    const project = await seedProject(sql);
    clock.set(new Date(T0));
    await ingest(project, [
      event('a', T0 - 3_600_000, { release: 'r1', user: { id: 'old-user' } }),
      event('a', T0, { release: 'r1', user: { id: 'kept-user' } }),
      event('b', T0, { user: { id: 'b-user' } }),
    ]);
    clock.set(new Date(T0 + 60 * DAY));
    await ingest(project, [
      event('a', T0 + 60 * DAY, { release: 'r2', user: { id: 'kept-user' } }),
      event('c', T0 + 60 * DAY - 60_000, { release: 'r2' }),
      // Sent 62 days late: Relay's rule makes its time the received time.
      event('c', T0 - 2 * DAY, { release: 'r0', user: { id: 'straggler' } }),
    ]);
    expect(await listEventPartitionDays(sql)).toEqual(
      expect.arrayContaining(['2026-08-01', '2026-09-30']),
    );

    clock.set(new Date(T0 + 91 * DAY));
    const result = await retention.run(true);
    expect(result).toMatchObject({
      ran: true,
      expiredEvents: 3,
      deletedErrors: 1,
    });
    expect(result.droppedPartitions).toContain('events_p20260801');
    expect(await listEventPartitionDays(sql)).not.toContain('2026-08-01');

    const errors = await errorsOf(project.projectId);
    expect(
      errors.map((e) => [e.culprit, e.count, e.user_count, e.first_release]),
    ).toEqual([
      ['a', '1', 1, 'r2'],
      ['c', '2', 1, 'r2'],
    ]);
    expect(defined(errors[0]).first_seen.toISOString()).toBe(
      new Date(T0 + 60 * DAY).toISOString(),
    );
    await expect(recountErrors(sql, project.projectId)).resolves.toEqual([]);
    const [ids] = await sql.rows<{ n: number }>(
      'SELECT count(*)::int AS n FROM error_tracking.event_ids WHERE project_id = $1',
      [project.projectId],
    );
    expect(defined(ids).n).toBe(3);

    // A second run finds nothing more to do and changes nothing.
    const again = await retention.run(true);
    expect(again).toMatchObject({
      ran: true,
      expiredEvents: 0,
      deletedErrors: 0,
    });
    await expect(recountErrors(sql, project.projectId)).resolves.toEqual([]);

    // Ingestion still works after partitions were dropped.
    await ingest(project, [event('a', T0 + 91 * DAY)]);
    await expect(recountErrors(sql, project.projectId)).resolves.toEqual([]);
  });

  it("takes events counted before hours had environments off the old hour's row", async () => {
    const project = await seedProject(sql);
    const hour = T0 - 2 * 3_600_000;
    clock.set(new Date(T0));
    await ingest(project, [
      event('legacy', hour, { environment: 'production' }),
      event('legacy', hour + 60_000, { environment: 'staging' }),
    ]);
    // Those two as an hour counted before environments were kept.
    await sql.rows(
      `WITH old AS (
         DELETE FROM error_tracking.error_hourly_counts h USING error_tracking.errors e
          WHERE e.id = h.error_id AND e.project_id = $1
         RETURNING h.error_id, h.hour, h.count)
       INSERT INTO error_tracking.error_hourly_counts (error_id, hour, environment, count)
       SELECT error_id, hour, '', sum(count)::int FROM old GROUP BY 1, 2`,
      [project.projectId],
    );
    // One more in that hour, counted with its environment.
    await ingest(project, [
      event('legacy', hour + 120_000, { environment: 'production' }),
    ]);
    clock.set(new Date(T0 + 60 * DAY));
    await ingest(project, [
      event('legacy', T0 + 60 * DAY, { environment: 'production' }),
    ]);
    clock.set(new Date(T0 + 91 * DAY));
    await expect(retention.run(true)).resolves.toMatchObject({
      expiredEvents: 3,
    });
    // Only the kept event's hour is left, with its environment.
    await expect(recountErrors(sql, project.projectId)).resolves.toEqual([]);
  });

  it('forgets sign-in throttles once their count would restart and their block is over', async () => {
    const now = clock.now().getTime();
    const minutes = (n: number) => new Date(now + n * 60_000);
    for (const [username, lastFailure, blockedUntil] of [
      ['sprayed', minutes(-16), minutes(-15)],
      ['recent', minutes(-1), minutes(-1)],
      ['still-locked', minutes(-20), minutes(10)],
    ] as const)
      await sql.rows(
        `INSERT INTO error_tracking.sign_in_throttles (username, failures, last_failure_at, blocked_until)
         VALUES ($1, 3, $2, $3)`,
        [username, lastFailure, blockedUntil],
      );
    await retention.run(true);
    const rows = await sql.rows<{ username: string }>(
      'SELECT username FROM error_tracking.sign_in_throttles ORDER BY username',
    );
    expect(rows.map((row) => row.username)).toEqual(['recent', 'still-locked']);
  });

  it('runs once per interval across replicas unless forced', async () => {
    clock.set(new Date(T0 + 200 * DAY));
    const repository = module.get(RetentionRepository);
    const now = clock.now();
    const cutoff = new Date(now.getTime() - 90 * DAY);
    await expect(repository.run(now, cutoff, 0)).resolves.toMatchObject({
      ran: true,
    });
    // Another replica's tick a minute later, interval one hour: skipped.
    const later = new Date(now.getTime() + 60_000);
    await expect(
      repository.run(later, cutoff, 59 * 60_000),
    ).resolves.toMatchObject({ ran: false });
    const hourLater = new Date(now.getTime() + 3_600_000);
    await expect(
      repository.run(hourLater, cutoff, 59 * 60_000),
    ).resolves.toMatchObject({ ran: true });
  });

  it('expires more than a batch per error, across errors and hours, and stays exact', async () => {
    const project = await seedProject(sql);
    const now = T0 + 400 * DAY;
    clock.set(new Date(now));
    // Received long ago, spread over hours: the batches remove them before
    // their partitions are dropped.
    const old = (n: number) => now - 100 * DAY - n * 60_000;
    const a = RETENTION_BATCH + 500;
    const b = RETENTION_BATCH + 100;
    const raws = [
      ...Array.from({ length: a }, (_, n) => event('many-a', old(n))),
      ...Array.from({ length: b }, (_, n) =>
        event('many-b', old(n), {
          user: { id: `u${n % 3}` },
          tags: { shard: `s${n % 2}` },
        }),
      ),
      event('many-b', now, { release: 'kept', user: { id: 'u0' } }),
      event('many-c', now),
    ];
    clock.set(new Date(old(0)));
    for (let i = 0; i < a + b; i += 500)
      await ingest(project, raws.slice(i, Math.min(i + 500, a + b)));
    clock.set(new Date(now));
    await ingest(project, raws.slice(a + b));

    const result = await retention.run(true);
    expect(result).toMatchObject({ expiredEvents: a + b, deletedErrors: 1 });
    const errors = await errorsOf(project.projectId);
    expect(
      errors.map((e) => [e.culprit, e.count, e.user_count, e.first_release]),
    ).toEqual([
      ['many-b', '1', 1, 'kept'],
      ['many-c', '1', 0, null],
    ]);
    await expect(recountErrors(sql, project.projectId)).resolves.toEqual([]);
    // The tag counts of the kept event alone: expired values are gone.
    const tags = await sql.rows<{ key: string; value: string; count: string }>(
      `SELECT t.key, t.value, t.count::text FROM error_tracking.error_tags t
         JOIN error_tracking.errors e ON e.id = t.error_id
        WHERE e.project_id = $1 AND e.culprit = 'many-b' ORDER BY 1, 2`,
      [project.projectId],
    );
    expect(tags.map((t) => [t.key, t.value, t.count])).toEqual([
      ['environment', 'production', '1'],
      ['level', 'error', '1'],
      ['release', 'kept', '1'],
      ['user', 'id:u0', '1'],
    ]);
    const [ids] = await sql.rows<{ n: number }>(
      'SELECT count(*)::int AS n FROM error_tracking.event_ids WHERE project_id = $1',
      [project.projectId],
    );
    expect(defined(ids).n).toBe(2);
  });

  it('expires source map bundles with their files like events, and chunks never assembled after a day', async () => {
    const project = await seedProject(sql);
    const artifacts = module.get(ArtifactsRepository);
    const bundle = (name: string) => ({
      bundleId: null,
      release: '1.0.0',
      dist: null,
      files: [
        {
          type: 'source_map',
          url: `~/${name}.js.map`,
          debugId: null,
          sourcemap: null,
          content: Buffer.from('{}'),
        },
      ],
    });
    const store = (name: string, now: Date) =>
      artifacts.storeBundle({
        projectIds: [project.projectId],
        checksum: name.padEnd(40, '0'),
        size: 2,
        bundle: bundle(name),
        release: '1.0.0',
        dist: null,
        userId: 1,
        chunks: [],
        now,
      });
    // After the runs above: a run is claimed only later than the last one.
    const start = T0 + 500 * DAY;
    await store('a', new Date(start));
    await store('b', new Date(start + 60 * DAY));
    await artifacts.storeChunks(
      1,
      [{ checksum: 'c'.repeat(40), data: Buffer.from('x') }],
      1024,
      new Date(start + 90 * DAY - 60_000),
    );
    await artifacts.storeChunks(
      1,
      [{ checksum: 'd'.repeat(40), data: Buffer.from('y') }],
      1024,
      new Date(start + 91 * DAY - 60_000),
    );

    clock.set(new Date(start + 91 * DAY));
    const result = await retention.run(true);
    expect(result.deletedArtifactBundles).toBe(1);
    const files = await sql.rows<{ url: string }>(
      'SELECT url FROM error_tracking.artifact_files WHERE project_id = $1',
      [project.projectId],
    );
    expect(files.map((f) => f.url)).toEqual(['~/b.js.map']);
    const chunks = await sql.rows<{ checksum: string }>(
      'SELECT checksum FROM error_tracking.artifact_chunks WHERE user_id = 1',
    );
    expect(chunks.map((c) => c.checksum)).toEqual(['d'.repeat(40)]);
  });

  it('keeps every acknowledged event its whole period since it was received', async () => {
    const project = await seedProject(sql);
    // Later than every other test's clock: retention's claim is shared.
    const received = T0 + 1000 * DAY;
    clock.set(new Date(received));
    await ingest(project, [
      // A phone with a reset clock: its time becomes the received time.
      event('reset-clock', Date.parse('2021-03-01T12:00:00Z')),
      // Sent from an offline cache 29 days late: its own time is kept.
      event('offline', received - 29 * DAY, { user: { id: 'offline-user' } }),
    ]);
    clock.set(new Date(received + 89 * DAY));
    await retention.run(true);
    expect((await errorsOf(project.projectId)).map((e) => e.count)).toEqual([
      '1',
      '1',
    ]);
    await expect(recountErrors(sql, project.projectId)).resolves.toEqual([]);

    clock.set(new Date(received + 91 * DAY));
    await retention.run(true);
    await expect(errorsOf(project.projectId)).resolves.toEqual([]);
  });

  it('deletes attachments with their events, and those no event holds, with their bytes', async () => {
    const project = await seedProject(sql);
    const attachments = module.get(AttachmentsRepository);
    // Later than every other test's clock: retention's claim is shared.
    const now = T0 + 3000 * DAY;
    /** An attachment written as the collector does, linked to `eventId` or not. */
    async function attach(
      receivedAt: number,
      eventId: string | undefined,
      name: string,
    ) {
      const intake = new AttachmentIntake(attachments, {
        projectId: project.projectId,
        receivedAt: new Date(receivedAt),
        maxBytes: 1 << 20,
        maxProjectBytes: 1 << 30,
        hold: () => undefined,
      });
      const bytes = Buffer.from(`${name} bytes`);
      const header = {
        type: 'attachment',
        filename: name,
        length: bytes.length,
      };
      expect(intake.streams('attachment', bytes.length)).toBe(true);
      await intake.piece({
        header,
        type: 'attachment',
        payload: bytes,
        streamed: 'more',
      });
      await intake.piece({
        header,
        type: 'attachment',
        payload: Buffer.alloc(0),
        streamed: 'last',
      });
      if (eventId)
        await expect(intake.link(eventId)).resolves.toMatchObject({ count: 1 });
    }
    const oldId = 'a'.repeat(32);
    const newId = 'b'.repeat(32);
    clock.set(new Date(now - 100 * DAY));
    await ingest(project, [event('att', now - 100 * DAY, { event_id: oldId })]);
    await attach(now - 100 * DAY, oldId, 'expired.bin');
    // Linked to an event that was never stored (a duplicate's retry).
    await attach(now - 100 * DAY, 'c'.repeat(32), 'stray.bin');
    clock.set(new Date(now));
    await ingest(project, [event('att', now, { event_id: newId })]);
    await attach(now, newId, 'kept.bin');
    // Never linked: a request cut off two hours ago, and one being read.
    await attach(now - 2 * 3_600_000, undefined, 'abandoned.bin');
    await attach(now - 60_000, undefined, 'in-flight.bin');

    await retention.run(true);
    const left = await sql.rows<{ filename: string; chunks: number }>(
      `SELECT a.filename, (SELECT count(*)::int FROM error_tracking.event_attachment_chunks c
                            WHERE c.attachment_id = a.id) AS chunks
         FROM error_tracking.event_attachments a WHERE a.project_id = $1 ORDER BY a.filename`,
      [project.projectId],
    );
    expect(left).toEqual([
      { filename: 'in-flight.bin', chunks: 1 },
      { filename: 'kept.bin', chunks: 1 },
    ]);
    const [orphans] = await sql.rows<{ n: number }>(
      `SELECT count(*)::int AS n FROM error_tracking.event_attachment_chunks c
        WHERE NOT EXISTS (SELECT 1 FROM error_tracking.event_attachments a WHERE a.id = c.attachment_id)`,
    );
    expect(defined(orphans).n).toBe(0);
    await expect(
      attachments.listForEvent(project.projectId, newId),
    ).resolves.toEqual([
      expect.objectContaining({ filename: 'kept.bin', size: 14 }),
    ]);
  });
});
