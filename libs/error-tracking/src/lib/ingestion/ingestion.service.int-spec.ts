import type { TestingModule } from '@nestjs/testing';
import { Sql } from '@quitanda/database';
import {
  defined,
  expectedUser,
  FIXTURE_PROJECT_ID,
  FIXTURE_PUBLIC_KEY,
  fixtureBody,
  fixtureQuery,
  loadSentryFixtures,
  openTestDatabase,
} from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import {
  errorTrackingTestModule,
  fakeRequest,
  seedProject,
  sqlOf,
} from '../../testing/error-tracking-test-module';
import { IngestionModule } from './ingestion.module';
import { IngestionService } from './ingestion.service';

describe('IngestionService (fixtures through the service)', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let service: IngestionService;
  let sql: Sql;

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await errorTrackingTestModule(database.url, {
      imports: [IngestionModule],
    });
    await module.init();
    service = module.get(IngestionService);
    sql = sqlOf(module);
    await seedProject(sql, {
      id: FIXTURE_PROJECT_ID,
      publicKey: FIXTURE_PUBLIC_KEY,
    });
  });

  afterAll(async () => {
    await module?.close();
    await database?.close();
  });

  it.each(loadSentryFixtures().map((f) => [f.file, f] as const))(
    'stores %s',
    async (_file, fixture) => {
      const response = await service.ingest({
        endpoint: fixture.endpoint,
        projectId: String(FIXTURE_PROJECT_ID),
        query: fixtureQuery(fixture),
        headers: Object.fromEntries(
          Object.entries(fixture.replay.headers).map(([k, v]) => [
            k.toLowerCase(),
            v,
          ]),
        ),
        body: fakeRequest(fixtureBody(fixture)),
        clientIp: '127.0.0.1',
      });
      if (!fixture.expect.carries_event) {
        expect(response).toEqual({});
        return;
      }
      const expected = defined(fixture.expect.events[0]);
      expect(response).toEqual({ id: expected.event_id });
      const [row] = await sql.rows<{
        level: string;
        release: string;
        environment: string;
        payload: Record<string, unknown>;
        title: string;
      }>(
        `SELECT e.level, e.release, e.environment, e.payload, r.title
           FROM error_tracking.events e
           JOIN error_tracking.errors r ON r.id = e.error_id
          WHERE e.project_id = $1 AND e.event_id = $2`,
        [FIXTURE_PROJECT_ID, expected.event_id],
      );
      expect(row).toBeDefined();
      expect(defined(row).level).toBe(expected.level ?? 'error');
      expect(defined(row).release).toBe(expected.release);
      expect(defined(row).environment).toBe(expected.environment);
      expect(defined(row).payload['user']).toEqual(expectedUser(expected));
      expect(defined(row).payload['tags']).toEqual(expected.tags);
    },
  );
});
