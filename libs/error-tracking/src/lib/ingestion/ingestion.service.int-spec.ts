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
import type { SentryFixture, TestDatabase } from '@quitanda/testing';

import {
  errorTrackingTestModule,
  fakeRequest,
  seedProject,
  sqlOf,
} from '../../testing/error-tracking-test-module';
import { ErrorTrackingErrorCode } from '../common/error-tracking.errors';
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

  /** Sends a fixture's request as recorded, or with its body and headers changed. */
  function replay(
    fixture: SentryFixture,
    body = fixtureBody(fixture),
    headers: Record<string, string> = fixture.replay.headers,
  ) {
    return service.ingest({
      endpoint: fixture.endpoint,
      projectId: String(FIXTURE_PROJECT_ID),
      query: fixtureQuery(fixture),
      headers: Object.fromEntries(
        Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]),
      ),
      body: fakeRequest(body),
      clientIp: '127.0.0.1',
    });
  }

  it.each(loadSentryFixtures().map((f) => [f.file, f] as const))(
    'stores %s',
    async (_file, fixture) => {
      const response = await replay(fixture);
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

  describe('the key of an envelope whose header names a dsn (recorded: Ruby 5.9.0)', () => {
    const ruby = defined(
      loadSentryFixtures().find(
        (f) => f.file === 'ruby-5.9.0/001-exception.json',
      ),
    );
    const recordedDsn = `http://${FIXTURE_PUBLIC_KEY}@127.0.0.1:38917/api/v4/error_tracking/collector/${FIXTURE_PROJECT_ID}`;
    /** The recorded envelope, its header's dsn replaced and its event id set. */
    function withDsn(dsn: string, eventId: string): Buffer {
      const body = fixtureBody(ruby).toString('utf8');
      const expected = defined(ruby.expect.events[0]).event_id;
      expect(body).toContain(recordedDsn);
      return Buffer.from(
        body.replace(recordedDsn, dsn).replaceAll(expected, eventId),
        'utf8',
      );
    }
    const { 'X-Sentry-Auth': auth, ...withoutAuth } = ruby.replay.headers;

    it("lets the request's key decide over another key in the dsn, as GitLab's collector spec expects", async () => {
      // The dsn of GitLab's own spec fixture (error_tracking/event.txt).
      const foreign =
        'http://1fedb514e17f4b958435093deb03048c@localhost:3000/api/v4/projects/7/error_tracking/collector/7';
      const eventId = 'a1'.repeat(16);
      expect(auth).toContain(FIXTURE_PUBLIC_KEY);
      await expect(replay(ruby, withDsn(foreign, eventId))).resolves.toEqual({
        id: eventId,
      });
    });

    it('authenticates by the dsn alone when the request carries no key', async () => {
      const eventId = 'b2'.repeat(16);
      await expect(
        replay(ruby, withDsn(recordedDsn, eventId), withoutAuth),
      ).resolves.toEqual({ id: eventId });
      const unknown = recordedDsn.replace(
        FIXTURE_PUBLIC_KEY,
        `glet_${'f'.repeat(32)}`,
      );
      await expect(
        replay(ruby, withDsn(unknown, 'c3'.repeat(16)), withoutAuth),
      ).rejects.toMatchObject({ code: ErrorTrackingErrorCode.Forbidden });
    });
  });
});
