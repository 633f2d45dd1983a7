import { Inject, Injectable } from '@nestjs/common';
import { isUniqueViolation } from '@quitanda/database';
import { CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import type { Caller } from '../accounts/account.types';
import { AccountsService } from '../accounts/accounts.service';
import { AccessLevel } from '../common/error-tracking.constants';
import { ErrorTrackingError } from '../common/error-tracking.errors';
import { ErrorTrackingDatabase } from '../persistence/error-tracking.database';
import type {
  MemberRecord,
  ProjectAccess,
  ProjectOrder,
  ProjectRecord,
} from './project.types';
import { ProjectsRepository } from './projects.repository';

/** `My Project!` -> `my-project` (GitLab-like path from a name). */
export function slugify(name: string): string {
  return (
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9_.]+/g, '-')
      .replace(/^[-_.]+|[-_.]+$/g, '')
      .slice(0, 255) || 'project'
  );
}

const PATH = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,254}$/;

@Injectable()
export class ProjectsService {
  constructor(
    private readonly db: ErrorTrackingDatabase,
    private readonly projects: ProjectsRepository,
    private readonly accounts: AccountsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async create(
    caller: Pick<Caller, 'user'>,
    input: { name?: string; path?: string; description?: string },
  ): Promise<ProjectRecord> {
    const name = input.name ?? input.path ?? '';
    const path = input.path ?? slugify(name);
    if (!PATH.test(path) || /^\d+$/.test(path))
      throw ErrorTrackingError.validation({
        path: [
          'can contain only letters, digits, "_", "-" and ".", and cannot be only digits',
        ],
      });
    try {
      return await this.projects.createWithOwner(
        {
          name,
          path,
          description: input.description ?? '',
          createdAt: this.clock.now(),
        },
        caller.user.id,
      );
    } catch (error) {
      if (isUniqueViolation(error, 'projects_path_key'))
        throw ErrorTrackingError.validation({
          path: ['has already been taken'],
        });
      throw error;
    }
  }

  /** The caller's projects (all for admins), each with the caller's access level. */
  /** A page at `offset`, or (undefined: keyset) after the id `keyset.after`. */
  async list(
    caller: Pick<Caller, 'user'>,
    limit: number,
    offset: number | undefined,
    keyset: { order?: ProjectOrder; after?: number } = {},
  ): Promise<{ projects: ProjectAccess[]; total: number }> {
    const { projects, total } = await this.projects.list(
      caller.user.isAdmin ? null : caller.user.id,
      { limit, offset, ...keyset },
    );
    return {
      projects: projects.map(({ project, accessLevel }) => ({
        project,
        accessLevel: caller.user.isAdmin
          ? AccessLevel.Owner
          : (accessLevel ?? AccessLevel.Guest),
      })),
      total,
    };
  }

  listMembers(access: ProjectAccess, limit: number, offset: number) {
    return this.projects.listMembers(access.project.id, limit, offset);
  }

  async getMember(
    access: ProjectAccess,
    userId: number,
  ): Promise<MemberRecord> {
    const member = await this.projects.findMember(access.project.id, userId);
    if (!member) throw ErrorTrackingError.notFound('Member');
    return member;
  }

  async addMember(
    access: ProjectAccess,
    userId: number,
    accessLevel: number,
  ): Promise<MemberRecord> {
    // Nobody grants more than they have (an owner or admin may add owners).
    if (accessLevel > access.accessLevel) throw ErrorTrackingError.forbidden();
    await this.accounts.getUser(userId);
    const added = await this.projects.addMember(
      access.project.id,
      userId,
      accessLevel,
      this.clock.now(),
    );
    if (!added) throw ErrorTrackingError.conflict('Member already exists');
    return this.getMember(access, userId);
  }

  async removeMember(access: ProjectAccess, userId: number): Promise<void> {
    const member = await this.getMember(access, userId);
    if (member.accessLevel > access.accessLevel)
      throw ErrorTrackingError.forbidden();
    await this.db.transaction(async (tx) => {
      // The owners stay locked until the removal commits: two owners who
      // remove each other at once cannot leave the project without one.
      if (
        member.accessLevel === AccessLevel.Owner &&
        (await this.projects.lockOwners(access.project.id, tx)) <= 1
      )
        throw ErrorTrackingError.forbidden(
          '403 Forbidden - the last owner cannot be removed',
        );
      await this.projects.removeMember(access.project.id, userId, tx);
    });
  }
}
