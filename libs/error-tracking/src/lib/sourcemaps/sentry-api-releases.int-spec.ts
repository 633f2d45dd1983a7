import type { TestingModule } from '@nestjs/testing';
import type { Sql } from '@quitanda/database';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import {
  errorTrackingTestModule,
  seedProject,
  sqlOf,
} from '../../testing/error-tracking-test-module';
import { callerOf } from '../../testing/records';
import { ErrorTrackingCoreModule } from '../core/error-tracking-core.module';
import { SENTRY_NOT_FOUND } from './sentry-api.errors';
import { SentryApiService } from './sentry-api.service';

describe('Sentry releases across projects', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let sql: Sql;
  let service: SentryApiService;
  const admin = callerOf({ isAdmin: true });

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await errorTrackingTestModule(database.url, {
      imports: [ErrorTrackingCoreModule],
      providers: [SentryApiService],
    });
    sql = sqlOf(module);
    service = module.get(SentryApiService);
  });

  afterAll(async () => {
    await module.close();
    await database.close();
  });

  it('finalizes a release in every project named', async () => {
    const ids = await Promise.all([seedProject(sql), seedProject(sql)]).then(
      (seeded) => seeded.map((p) => String(p.projectId)),
    );
    await service.createRelease(admin, { version: '2.0', projects: ids });

    const finalized = await service.updateRelease(admin, '2.0', {
      projects: ids,
      dateReleased: '2026-06-01T09:00:00Z',
    });
    expect(finalized.dateReleased).toBe('2026-06-01T09:00:00.000Z');
    expect(finalized.projects.map((p) => String(p.id))).toEqual(ids);
    await expect(
      sql.rows(
        `SELECT count(*)::int AS n FROM error_tracking.releases
          WHERE project_id = ANY($1::int[]) AND date_released IS NOT NULL`,
        [ids.map(Number)],
      ),
    ).resolves.toEqual([{ n: 2 }]);
  });

  it('finalizes a release nowhere when one of the projects named lacks it', async () => {
    const { projectId: has } = await seedProject(sql);
    const { projectId: lacks } = await seedProject(sql);
    await service.createRelease(admin, {
      version: '1.0',
      projects: [String(has)],
    });

    await expect(
      service.updateRelease(admin, '1.0', {
        projects: [String(has), String(lacks)],
        dateReleased: '2026-06-01T09:00:00Z',
        ref: 'main',
      }),
    ).rejects.toMatchObject({ message: SENTRY_NOT_FOUND });
    await expect(
      sql.rows(
        'SELECT ref, date_released FROM error_tracking.releases WHERE project_id = $1',
        [has],
      ),
    ).resolves.toEqual([{ ref: null, date_released: null }]);
  });
});
