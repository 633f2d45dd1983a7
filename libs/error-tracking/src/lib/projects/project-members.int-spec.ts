import type { TestingModule } from '@nestjs/testing';
import type { Sql } from '@quitanda/database';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import {
  errorTrackingTestModule,
  sqlOf,
} from '../../testing/error-tracking-test-module';
import { AccountsService } from '../accounts/accounts.service';
import { AccessLevel } from '../common/error-tracking.constants';
import { ErrorTrackingErrorCode } from '../common/error-tracking.errors';
import { ErrorTrackingCoreModule } from '../core/error-tracking-core.module';
import { ProjectAccessService } from './project-access.service';
import { ProjectsService } from './projects.service';

describe('project members', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let sql: Sql;

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await errorTrackingTestModule(database.url, {
      imports: [ErrorTrackingCoreModule],
    });
    sql = sqlOf(module);
  });

  afterAll(async () => {
    await module.close();
    await database.close();
  });

  it('keeps one owner when two owners remove each other at once', async () => {
    const accounts = module.get(AccountsService);
    const projects = module.get(ProjectsService);
    const [ada, bob] = await Promise.all(
      ['ada', 'bob'].map((username) =>
        accounts.createUser({
          username,
          name: username,
          email: `${username}@example.com`,
        }),
      ),
    );
    if (!ada || !bob) throw new Error('users not created');
    const project = await projects.create({ user: ada }, { name: 'Shop' });
    const asAda = { project, accessLevel: AccessLevel.Owner };
    await projects.addMember(asAda, bob.id, AccessLevel.Owner);
    const asBob = await module
      .get(ProjectAccessService)
      .require({ user: bob }, String(project.id), AccessLevel.Owner);

    const outcomes = await Promise.allSettled([
      projects.removeMember(asAda, bob.id),
      projects.removeMember(asBob, ada.id),
    ]);

    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({
      reason: { code: ErrorTrackingErrorCode.Forbidden },
    });
    await expect(
      sql.rows(
        'SELECT count(*)::int AS owners FROM error_tracking.project_members WHERE project_id = $1 AND access_level = 50',
        [project.id],
      ),
    ).resolves.toEqual([{ owners: 1 }]);
  });
});
