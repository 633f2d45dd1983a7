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
import { ErrorsRepository } from './errors.repository';
import { parseSearch } from './sentry-search';

const ERRORS = 2_000;
const NOW = new Date('2026-11-22T10:00:00.000Z');

/** Every relation a plan reads, from EXPLAIN's JSON. */
function relations(plan: unknown): string[] {
  if (Array.isArray(plan)) return plan.flatMap(relations);
  if (typeof plan !== 'object' || plan === null) return [];
  const node = plan as Record<string, unknown>;
  const own =
    typeof node['Relation Name'] === 'string'
      ? [`${node['Node Type']} ${node['Relation Name']}`]
      : [];
  return [...own, ...Object.values(node).flatMap(relations)];
}

describe('error list search against the database', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let sql: Sql;
  let errors: ErrorsRepository;
  let projectId: number;

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await errorTrackingTestModule(
      database.url,
      [ErrorsRepository],
      {},
      new FixedClock(NOW.toISOString()),
    );
    await module.init();
    sql = sqlOf(module);
    errors = module.get(ErrorsRepository);
    projectId = (await seedProject(sql)).projectId;
    // Many errors, each with its tag counts as the flush writes them: a
    // shard of ten, two browsers, two environments, 50 users.
    await sql.rows(
      `INSERT INTO error_tracking.errors
              (project_id, fingerprint, grouping_version, title, level, status, count,
               user_count, first_seen, last_seen, last_event_id, created_at, updated_at)
       SELECT $1, gen_random_uuid(), 3, 'E' || i, 'error', 'unresolved', 100, 50,
              $2::timestamptz - i * interval '1 minute', $2::timestamptz - i * interval '1 second',
              gen_random_uuid(), $2, $2
         FROM generate_series(1, $3::int) AS i`,
      [projectId, NOW, ERRORS],
    );
    await sql.rows(
      `INSERT INTO error_tracking.error_tags (error_id, key, value, count, last_seen)
       SELECT e.id, t.key, t.value, t.count, $2
         FROM error_tracking.errors e
        CROSS JOIN LATERAL (
          VALUES ('shard', 's' || (e.id % 10), 100),
                 ('browser.name', 'Chrome', 60), ('browser.name', 'Firefox', 40),
                 ('environment', CASE WHEN e.id % 4 = 0 THEN 'staging' ELSE 'production' END, 100)
          UNION ALL
          SELECT 'user', 'id:u' || u, 2 FROM generate_series(1, 50) AS u
        ) AS t(key, value, count)
        WHERE e.project_id = $1`,
      [projectId, NOW],
    );
    await sql.rows('ANALYZE error_tracking.errors, error_tracking.error_tags');
  });

  afterAll(async () => {
    await module?.close();
    await database?.close();
  });

  it('filters by tags and negation from the tag counts, never reading events', async () => {
    const query = {
      projectId,
      status: 'unresolved' as const,
      sort: 'last_seen' as const,
      terms: parseSearch(
        'shard:s3 browser.name:Chrome !environment:staging has:user u4',
        'errors',
        NOW,
      ),
      limit: 20,
    };
    const seen: Array<{ text: string; values: unknown[] }> = [];
    const replica = (errors as unknown as { replica: Sql }).replica;
    const rows = replica.rows.bind(replica);
    jest
      .spyOn(replica, 'rows')
      .mockImplementation((text: string, values?: readonly unknown[]) => {
        seen.push({ text, values: [...(values ?? [])] });
        return rows(text, values);
      });
    const page = await errors.list(query, new Date(NOW.getTime() - 86_400_000));
    jest.restoreAllMocks();

    expect(page).toHaveLength(20);
    const [{ id: firstId }] = (await sql.rows<{ id: string }>(
      `SELECT id::text FROM error_tracking.errors e
        WHERE project_id = $1 AND id % 10 = 3 AND id % 4 <> 0
        ORDER BY last_seen DESC, id DESC LIMIT 1`,
      [projectId],
    )) as [{ id: string }];
    expect(page[0]?.error.id).toBe(firstId);
    for (const { error } of page) {
      expect(Number(error.id) % 10).toBe(3);
      expect(Number(error.id) % 4).not.toBe(0);
    }

    const [statement] = seen;
    const [plan] = await sql.rows<{ 'QUERY PLAN': unknown }>(
      `EXPLAIN (FORMAT JSON) ${statement?.text ?? ''}`,
      statement?.values ?? [],
    );
    const read = relations(plan?.['QUERY PLAN']);
    expect(read.some((r) => r.endsWith(' events'))).toBe(false);
    expect(read.filter((r) => r.endsWith(' error_tags'))).not.toEqual([]);
    for (const scan of read.filter((r) => r.endsWith(' error_tags')))
      expect(scan).toMatch(/^Index (Only )?Scan /);
  });
});
