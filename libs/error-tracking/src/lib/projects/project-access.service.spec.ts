import { newTestService } from '@quitanda/testing';

import { callerOf, projectRecord } from '../../testing/records';
import { AccessLevel } from '../common/error-tracking.constants';
import { ErrorTrackingErrorCode } from '../common/error-tracking.errors';
import { ProjectAccessService } from './project-access.service';
import { ProjectsRepository } from './projects.repository';

describe('ProjectAccessService', () => {
  let service: ProjectAccessService;
  let projects: jest.Mocked<ProjectsRepository>;
  const project = projectRecord();
  const member = callerOf({ id: 7 });

  beforeEach(async () => {
    const built = await newTestService(ProjectAccessService);
    service = built.sut;
    projects = built.mock(ProjectsRepository);
    projects.findWithAccess.mockResolvedValue({
      project,
      accessLevel: AccessLevel.Developer,
    });
  });

  it("finds a project by id for digits and by path otherwise, with the caller's level", async () => {
    await expect(
      service.require(member, '3', AccessLevel.Developer),
    ).resolves.toEqual({ project, accessLevel: AccessLevel.Developer });
    await service.require(member, 'shop', AccessLevel.Reporter);
    // Beyond PostgreSQL's integer a number is no id: it is looked up as a path.
    await service.require(member, '2147483648', AccessLevel.Reporter);
    await service.require(member, '2147483647', AccessLevel.Reporter);
    expect(projects.findWithAccess.mock.calls).toEqual([
      [{ id: 3 }, 7],
      [{ path: 'shop' }, 7],
      [{ path: '2147483648' }, 7],
      [{ id: 2147483647 }, 7],
    ]);
  });

  it('answers Project Not Found for an unknown project and for a non-member', async () => {
    projects.findWithAccess.mockResolvedValueOnce(undefined);
    await expect(
      service.require(member, '3', AccessLevel.Guest),
    ).rejects.toMatchObject({
      code: ErrorTrackingErrorCode.ProjectNotFound,
      message: '404 Project Not Found',
    });
    projects.findWithAccess.mockResolvedValueOnce({
      project,
      accessLevel: null,
    });
    await expect(
      service.require(member, '3', AccessLevel.Guest),
    ).rejects.toMatchObject({ code: ErrorTrackingErrorCode.ProjectNotFound });
  });

  it('forbids a member below the minimum level and lets one at it through', async () => {
    await expect(
      service.require(member, '3', AccessLevel.Maintainer),
    ).rejects.toMatchObject({ code: ErrorTrackingErrorCode.Forbidden });
    await expect(
      service.require(member, '3', AccessLevel.Developer),
    ).resolves.toMatchObject({ accessLevel: AccessLevel.Developer });
  });

  it('lets an admin act as owner, member or not', async () => {
    projects.findWithAccess.mockResolvedValue({ project, accessLevel: null });
    await expect(
      service.require(callerOf({ isAdmin: true }), '3', AccessLevel.Owner),
    ).resolves.toEqual({ project, accessLevel: AccessLevel.Owner });
  });
});
