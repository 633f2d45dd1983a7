import type { TestingModule } from '@nestjs/testing';
import type { Sql } from '@quitanda/database';
import { FixedClock } from '@quitanda/kernel';
import { captureStdout, openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import {
  errorTrackingTestModule,
  seedProject,
  sqlOf,
} from '../../testing/error-tracking-test-module';
import { ingestRequest } from '../../testing/ingest-request';
import { recountErrors } from '../../testing/recount';
import { recordedEvent } from '../../testing/recorded-event';
import { RetitleErrorsCommand } from '../cli/error-tracking-cli.commands';
import { RetagEventsCommand } from '../cli/retag-events.command';
import { IngestionQueue } from '../ingestion/ingestion-queue';
import { IngestionModule } from '../ingestion/ingestion.module';
import type { JsonObject } from '../sentry-event/event-json';
import { RetitleRepository } from './retitle.repository';
import { RetitleModule } from './retitle.module';

const rails: JsonObject = {
  platform: 'ruby',
  transaction: 'PostsController#error2',
  exception: [
    {
      type: 'ActionView::MissingTemplate',
      value: 'Missing template posts/error2',
      stacktrace: {
        frames: [
          {
            function: 'error2',
            filename: 'app/controllers/posts_controller.rb',
            in_app: true,
          },
          { function: 'find', filename: 'action_view/path_set.rb' },
        ],
      },
    },
  ],
};

const segfault: JsonObject = {
  platform: 'native',
  exception: [
    {
      type: 'SIGSEGV',
      value: 'Segfault',
      mechanism: { type: 'signalhandler', synthetic: true },
      stacktrace: {
        frames: [
          { function: 'main', in_app: true },
          { function: 'parse_header', in_app: true },
        ],
      },
    },
  ],
};

const raven: JsonObject = {
  platform: 'python',
  culprit: 'shop.views in index',
  exception: [
    {
      type: 'ZeroDivisionError',
      value: 'division by zero',
      stacktrace: { frames: [{ function: 'index', module: 'shop.views' }] },
    },
  ],
};

describe('errors:retitle and errors:retag (stored errors and events by today rules)', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let sql: Sql;
  const clock = new FixedClock('2026-11-22T10:00:00.000Z');
  const stdout = captureStdout();

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await errorTrackingTestModule(
      database.url,
      {
        imports: [IngestionModule, RetitleModule],
        providers: [RetitleErrorsCommand, RetagEventsCommand],
      },
      {},
      clock,
    );
    await module.init();
    sql = sqlOf(module);
  });

  afterAll(async () => {
    await module?.close();
    await database?.close();
  });

  /** Sets an error's fields, and its latest event's, as earlier rules stored them. */
  async function storeAsBefore(
    projectId: number,
    type: string,
    fields: { title?: string; culprit: string },
  ): Promise<void> {
    const title = fields.title ?? null;
    const [row] = await sql.rows<{ last_event_id: string }>(
      `UPDATE error_tracking.errors
          SET title = coalesce($3, title), culprit = $4
        WHERE project_id = $1 AND type = $2
       RETURNING last_event_id::text`,
      [projectId, type, title, fields.culprit],
    );
    await sql.rows(
      `UPDATE error_tracking.events
          SET payload = payload || jsonb_strip_nulls(
                jsonb_build_object('title', $2::text, 'culprit', $3::text))
        WHERE event_id = $1::uuid`,
      [row?.last_event_id, title, fields.culprit],
    );
  }

  /** Runs `errors:retitle`: its report, and the project's errors after it. */
  async function retitle(projectId: number, batch?: number) {
    stdout.clear();
    await module
      .get(RetitleErrorsCommand)
      .run([], batch === undefined ? {} : { batch });
    const errors = await sql.rows<{
      type: string;
      title: string;
      culprit: string;
    }>(
      `SELECT type, title, culprit FROM error_tracking.errors
        WHERE project_id = $1 ORDER BY type`,
      [projectId],
    );
    return { report: stdout.text(), errors };
  }

  it('brings old titles and culprits to the new rules, keeping an SDK culprit, in batches', async () => {
    const project = await seedProject(sql);
    await module
      .get(IngestionQueue)
      .submit(ingestRequest(project, [rails, segfault, raven], clock.now()));
    // As the collector stored them before Sentry's rules.
    const before: Array<[string, string, string]> = [
      [
        'ActionView::MissingTemplate',
        'ActionView::MissingTemplate: Missing template posts/error2',
        'find (action_view/path_set.rb)',
      ],
      ['SIGSEGV', 'SIGSEGV: Segfault', 'parse_header'],
      [
        'ZeroDivisionError',
        'ZeroDivisionError: division by zero',
        'shop.views in index',
      ],
    ];
    for (const [type, title, culprit] of before)
      await storeAsBefore(project.projectId, type, { title, culprit });

    const after = await retitle(project.projectId, 2);
    expect(after.report).toMatch(/3 errors read, 2 changed/);
    expect(after.errors).toMatchObject([
      {
        title: 'ActionView::MissingTemplate: Missing template posts/error2',
        culprit: 'PostsController#error2',
      },
      { title: 'parse_header', culprit: '' },
      {
        title: 'ZeroDivisionError: division by zero',
        culprit: 'shop.views in index',
      },
    ]);

    // Run again: nothing left to change.
    stdout.clear();
    await module.get(RetitleErrorsCommand).run([], {});
    expect(stdout.text()).toMatch(/3 errors read, 0 changed/);
  });

  it("rewrites culprits stored as `function (location)` the way Sentry's get_culprit_string writes them", async () => {
    const project = await seedProject(sql);
    // Recorded Python and Go events; the Python one thrown inside a library.
    const python = recordedEvent(
      'python-1.21.0/001-exception.json',
      {},
      (f) => [
        ...f,
        { function: '__getitem__', module: 'collections', in_app: false },
      ],
    );
    const go = recordedEvent('go-0.20.0/001-exception.json');
    await module
      .get(IngestionQueue)
      .submit(ingestRequest(project, [python, go], clock.now()));
    // As the collector stored them before: every platform `function (location)`.
    const before: Array<[string, string]> = [
      ['ValueError', 'innermost (__main__)'],
      ['*errors.errorString', 'outer.func1 (main)'],
    ];
    for (const [type, culprit] of before)
      await storeAsBefore(project.projectId, type, { culprit });

    const after = await retitle(project.projectId);
    // Across projects: the first test's three errors are already current.
    expect(after.report).toMatch(/5 errors read, 2 changed/);
    expect(after.errors).toMatchObject([
      { type: '*errors.errorString', culprit: 'main in outer.func1' },
      { type: 'ValueError', culprit: '__main__ in innermost' },
    ]);
  });

  it('leaves an error alone when a newer event reached it meanwhile', async () => {
    const project = await seedProject(sql);
    await module
      .get(IngestionQueue)
      .submit(ingestRequest(project, [rails], clock.now()));
    const repository = module.get(RetitleRepository);
    const [error] = await sql.rows<{ id: string }>(
      'SELECT id::text FROM error_tracking.errors WHERE project_id = $1',
      [project.projectId],
    );
    const changed = await repository.update([
      {
        id: String(error?.id),
        lastEventId: '00000000-0000-0000-0000-000000000001',
        title: 'stale',
        culprit: 'stale',
      },
    ]);
    expect(changed).toBe(0);
    const [row] = await sql.rows<{ title: string }>(
      'SELECT title FROM error_tracking.errors WHERE id = $1',
      [error?.id],
    );
    expect(row?.title).toBe(
      'ActionView::MissingTemplate: Missing template posts/error2',
    );
  });

  function taggedEvent(n: number, browser: string): JsonObject {
    return {
      event_id: n.toString(16).padStart(32, 'c'),
      platform: 'node',
      release: 'shop@1.0.0',
      user: { id: `u${n % 2}` },
      tags: { shard: `s${n % 3}` },
      contexts: { browser: { name: browser, version: '1' } },
      exception: [
        {
          type: n % 2 === 0 ? 'EvenError' : 'OddError',
          value: 'x',
          stacktrace: { frames: [{ function: 'f', module: 'm' }] },
        },
      ],
    };
  }

  it('tags old events and counts them, in batches, exactly once however often it runs', async () => {
    const project = await seedProject(sql);
    const raws = Array.from({ length: 7 }, (_, n) =>
      taggedEvent(n, n < 4 ? 'Chrome' : 'Firefox'),
    );
    await expect(
      module
        .get(IngestionQueue)
        .submit(ingestRequest(project, raws, clock.now())),
    ).resolves.toBe('ok');
    const expected = await sql.rows(
      `SELECT t.error_id::text, t.key, t.value, t.count::text FROM error_tracking.error_tags t
         JOIN error_tracking.errors e ON e.id = t.error_id
        WHERE e.project_id = $1 ORDER BY 1, 2, 3`,
      [project.projectId],
    );
    // As stored before tags were kept: no tags, no counts.
    await sql.rows(
      `UPDATE error_tracking.events SET tags = NULL WHERE project_id = $1`,
      [project.projectId],
    );
    await sql.rows(
      `DELETE FROM error_tracking.error_tags t USING error_tracking.errors e
        WHERE e.id = t.error_id AND e.project_id = $1`,
      [project.projectId],
    );

    const command = module.get(RetagEventsCommand);
    stdout.clear();
    await command.run([], { batch: 3 });
    expect(stdout.text()).toMatch(
      /^Tags: 7 events without tags read, 7 tagged in \d+ ms\.\n$/,
    );
    const counted = await sql.rows(
      `SELECT t.error_id::text, t.key, t.value, t.count::text FROM error_tracking.error_tags t
         JOIN error_tracking.errors e ON e.id = t.error_id
        WHERE e.project_id = $1 ORDER BY 1, 2, 3`,
      [project.projectId],
    );
    expect(counted).toEqual(expected);
    await expect(recountErrors(sql, project.projectId)).resolves.toEqual([]);

    stdout.clear();
    await command.run([], {});
    expect(stdout.text()).toMatch(
      /^Tags: 0 events without tags read, 0 tagged/,
    );
    await expect(recountErrors(sql, project.projectId)).resolves.toEqual([]);
  });
});
