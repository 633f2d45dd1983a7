import { CLOCK, FixedClock } from '@quitanda/kernel';
import { newTestService } from '@quitanda/testing';

import {
  callerOf,
  projectAccess,
  projectRecord,
  userRecord,
} from '../../testing/records';
import { AccountsService } from '../accounts/accounts.service';
import { AccessLevel } from '../common/error-tracking.constants';
import {
  ErrorTrackingError,
  ErrorTrackingErrorCode,
} from '../common/error-tracking.errors';
import type { MemberRecord } from './project.types';
import { ErrorTrackingDatabase } from '../persistence/error-tracking.database';
import type { Transaction } from '../persistence/error-tracking.database';
import { ProjectsRepository } from './projects.repository';
import { ProjectsService, slugify } from './projects.service';

const NOW = '2026-06-01T10:00:00.000Z';

function member(userId: number, accessLevel: number): MemberRecord {
  return {
    user: userRecord({ id: userId }),
    accessLevel,
    createdAt: new Date(NOW),
  };
}

describe('slugify', () => {
  it('makes a GitLab-like path of a name', () => {
    expect(slugify('My Project!')).toBe('my-project');
    expect(slugify('Café Ünïcode')).toBe('cafe-unicode');
    expect(slugify('--a.b_c--')).toBe('a.b_c');
    expect(slugify('!!!')).toBe('project');
  });
});

describe('ProjectsService', () => {
  let service: ProjectsService;
  let projects: jest.Mocked<ProjectsRepository>;
  let accounts: jest.Mocked<AccountsService>;
  const tx = {} as Transaction;
  const caller = callerOf({ id: 7 });

  beforeEach(async () => {
    const built = await newTestService(ProjectsService, [
      { provide: CLOCK, useValue: new FixedClock(NOW) },
    ]);
    service = built.sut;
    projects = built.mock(ProjectsRepository);
    accounts = built.mock(AccountsService);
    built
      .mock(ErrorTrackingDatabase)
      .transaction.mockImplementation((work) => work(tx));
    projects.createWithOwner.mockResolvedValue(projectRecord());
  });

  describe('create', () => {
    it('makes the caller owner of a project whose path comes from its name', async () => {
      await expect(
        service.create(caller, { name: 'My Shop' }),
      ).resolves.toEqual(projectRecord());
      expect(projects.createWithOwner).toHaveBeenCalledWith(
        {
          name: 'My Shop',
          path: 'my-shop',
          description: '',
          createdAt: new Date(NOW),
        },
        7,
      );
    });

    it('takes a given path as it is, and a path alone as the name', async () => {
      await service.create(caller, { path: 'Shop.v2', description: 'd' });
      expect(projects.createWithOwner).toHaveBeenCalledWith(
        expect.objectContaining({
          name: 'Shop.v2',
          path: 'Shop.v2',
          description: 'd',
        }),
        7,
      );
    });

    it.each([
      ['only digits', '12345'],
      ['a slash', 'a/b'],
      ['a leading dash', '-lead'],
      ['over 255 characters', 'x'.repeat(256)],
    ])(
      'refuses a path with %s as a validation error of path',
      async (_, path) => {
        await expect(
          service.create(caller, { name: 'n', path }),
        ).rejects.toMatchObject({
          code: ErrorTrackingErrorCode.ValidationFailed,
          details: { fields: { path: [expect.any(String)] } },
        });
        expect(projects.createWithOwner).not.toHaveBeenCalled();
      },
    );

    it('answers "has already been taken" for a path in use', async () => {
      projects.createWithOwner.mockRejectedValue({
        code: '23505',
        constraint: 'projects_path_key',
      });
      await expect(
        service.create(caller, { name: 'Shop' }),
      ).rejects.toMatchObject({
        code: ErrorTrackingErrorCode.ValidationFailed,
        details: { fields: { path: ['has already been taken'] } },
      });
    });

    it('lets any other database failure through unchanged', async () => {
      const failure = { code: '23505', constraint: 'other_key' };
      projects.createWithOwner.mockRejectedValue(failure);
      await expect(service.create(caller, { name: 'Shop' })).rejects.toBe(
        failure,
      );
    });
  });

  describe('list', () => {
    it("lists a member's projects with their level, guest where none is known", async () => {
      projects.list.mockResolvedValue({
        projects: [
          { project: projectRecord({ id: 1 }), accessLevel: 30 },
          { project: projectRecord({ id: 2 }), accessLevel: null },
        ],
        total: 2,
      });
      const order = { by: 'name', ascending: true } as const;
      await expect(
        service.list(caller, 20, undefined, { order, after: 9 }),
      ).resolves.toEqual({
        projects: [
          { project: projectRecord({ id: 1 }), accessLevel: 30 },
          {
            project: projectRecord({ id: 2 }),
            accessLevel: AccessLevel.Guest,
          },
        ],
        total: 2,
      });
      expect(projects.list).toHaveBeenCalledWith(7, {
        limit: 20,
        offset: undefined,
        order,
        after: 9,
      });
    });

    it('lists every project for an admin, as owner', async () => {
      projects.list.mockResolvedValue({
        projects: [{ project: projectRecord(), accessLevel: null }],
        total: 1,
      });
      const page = await service.list(callerOf({ isAdmin: true }), 20, 40);
      expect(page.projects[0]?.accessLevel).toBe(AccessLevel.Owner);
      expect(projects.list).toHaveBeenCalledWith(null, {
        limit: 20,
        offset: 40,
      });
    });
  });

  describe('members', () => {
    const maintainer = projectAccess(AccessLevel.Maintainer);

    it('answers Member Not Found for a user who is not a member', async () => {
      projects.findMember.mockResolvedValue(undefined);
      await expect(service.getMember(maintainer, 8)).rejects.toMatchObject({
        code: ErrorTrackingErrorCode.NotFound,
        message: '404 Member Not Found',
      });
      expect(projects.findMember).toHaveBeenCalledWith(3, 8);
    });

    it('adds an existing user at a level up to the adder’s own and returns the member', async () => {
      accounts.getUser.mockResolvedValue(userRecord({ id: 8 }));
      projects.addMember.mockResolvedValue(true);
      projects.findMember.mockResolvedValue(member(8, AccessLevel.Maintainer));
      await expect(
        service.addMember(maintainer, 8, AccessLevel.Maintainer),
      ).resolves.toEqual(member(8, AccessLevel.Maintainer));
      expect(projects.addMember).toHaveBeenCalledWith(
        3,
        8,
        AccessLevel.Maintainer,
        new Date(NOW),
      );
    });

    it('forbids granting more than the adder has', async () => {
      await expect(
        service.addMember(maintainer, 8, AccessLevel.Owner),
      ).rejects.toMatchObject({ code: ErrorTrackingErrorCode.Forbidden });
      expect(projects.addMember).not.toHaveBeenCalled();
    });

    it('answers User Not Found for an unknown user before adding anything', async () => {
      accounts.getUser.mockRejectedValue(ErrorTrackingError.notFound('User'));
      await expect(
        service.addMember(maintainer, 8, AccessLevel.Developer),
      ).rejects.toMatchObject({ message: '404 User Not Found' });
      expect(projects.addMember).not.toHaveBeenCalled();
    });

    it('answers a conflict for a user who is a member already', async () => {
      accounts.getUser.mockResolvedValue(userRecord({ id: 8 }));
      projects.addMember.mockResolvedValue(false);
      await expect(
        service.addMember(maintainer, 8, AccessLevel.Developer),
      ).rejects.toMatchObject({
        code: ErrorTrackingErrorCode.Conflict,
        message: 'Member already exists',
      });
    });

    it('removes a member at or below the remover’s level, without counting owners', async () => {
      projects.findMember.mockResolvedValue(member(8, AccessLevel.Maintainer));
      await service.removeMember(maintainer, 8);
      expect(projects.removeMember).toHaveBeenCalledWith(3, 8, tx);
      expect(projects.lockOwners).not.toHaveBeenCalled();
    });

    it('forbids removing a member above the remover’s level', async () => {
      projects.findMember.mockResolvedValue(member(8, AccessLevel.Owner));
      await expect(service.removeMember(maintainer, 8)).rejects.toMatchObject({
        code: ErrorTrackingErrorCode.Forbidden,
      });
      expect(projects.removeMember).not.toHaveBeenCalled();
    });

    it('keeps the last owner, and removes an owner who has a co-owner, counting owners under their lock', async () => {
      const owner = projectAccess(AccessLevel.Owner);
      projects.findMember.mockResolvedValue(member(7, AccessLevel.Owner));
      projects.lockOwners.mockResolvedValue(1);
      await expect(service.removeMember(owner, 7)).rejects.toMatchObject({
        code: ErrorTrackingErrorCode.Forbidden,
        message: '403 Forbidden - the last owner cannot be removed',
      });
      expect(projects.removeMember).not.toHaveBeenCalled();

      projects.lockOwners.mockResolvedValue(2);
      await service.removeMember(owner, 7);
      expect(projects.lockOwners).toHaveBeenCalledWith(3, tx);
      expect(projects.removeMember).toHaveBeenCalledWith(3, 7, tx);
    });
  });
});
