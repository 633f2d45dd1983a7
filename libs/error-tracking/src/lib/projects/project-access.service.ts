import { Injectable } from '@nestjs/common';

import type { Caller } from '../accounts/account.types';
import { AccessLevel } from '../common/error-tracking.constants';
import { ErrorTrackingError } from '../common/error-tracking.errors';
import type { ProjectAccess } from './project.types';
import { ProjectsRepository } from './projects.repository';

/**
 * GitLab's project permission check: a non-member gets 404 `Project Not
 * Found` (existence is not revealed), a member below `minimum` gets 403,
 * an admin acts as owner everywhere.
 */
@Injectable()
export class ProjectAccessService {
  constructor(private readonly projects: ProjectsRepository) {}

  async require(
    caller: Pick<Caller, 'user'>,
    idOrPath: string,
    minimum: AccessLevel,
  ): Promise<ProjectAccess> {
    const key =
      /^\d{1,10}$/.test(idOrPath) && Number(idOrPath) <= 2_147_483_647
        ? { id: Number(idOrPath) }
        : { path: idOrPath };
    const found = await this.projects.findWithAccess(key, caller.user.id);
    if (!found) throw ErrorTrackingError.projectNotFound();
    const level = caller.user.isAdmin ? AccessLevel.Owner : found.accessLevel;
    if (level === null) throw ErrorTrackingError.projectNotFound();
    if (level < minimum) throw ErrorTrackingError.forbidden();
    return { project: found.project, accessLevel: level };
  }
}
