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
import { RetitleErrorsCommand } from '../cli/error-tracking-cli.commands';
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

describe('errors:retitle (stored errors by today rules)', () => {
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
        providers: [RetitleErrorsCommand],
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
    for (const [type, title, culprit] of before) {
      const [row] = await sql.rows<{ last_event_id: string }>(
        `UPDATE error_tracking.errors SET title = $3, culprit = $4
          WHERE project_id = $1 AND type = $2
         RETURNING last_event_id::text`,
        [project.projectId, type, title, culprit],
      );
      await sql.rows(
        `UPDATE error_tracking.events
            SET payload = payload || jsonb_build_object('title', $2::text, 'culprit', $3::text)
          WHERE event_id = $1::uuid`,
        [row?.last_event_id, title, culprit],
      );
    }

    await module.get(RetitleErrorsCommand).run([], { batch: 2 });
    expect(stdout.text()).toMatch(/3 errors read, 2 changed/);
    const after = await sql.rows<{ title: string; culprit: string }>(
      `SELECT title, culprit FROM error_tracking.errors
        WHERE project_id = $1 ORDER BY type`,
      [project.projectId],
    );
    expect(after).toEqual([
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
});
