import { Inject, Injectable } from '@nestjs/common';
import { CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import type { Caller } from '../accounts/account.types';
import { ErrorTrackingError } from '../common/error-tracking.errors';
import { ErrorTrackingDatabase } from '../persistence/error-tracking.database';
import type { ProjectAccess } from '../projects/project.types';
import type { IssueChanges, IssueRecord } from './issue.types';
import { IssuesRepository } from './issues.repository';

/** A minimal GitLab issue tracker, enough to own errors. */
@Injectable()
export class IssuesService {
  constructor(
    private readonly db: ErrorTrackingDatabase,
    private readonly issues: IssuesRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  create(
    caller: Pick<Caller, 'user'>,
    access: ProjectAccess,
    input: { title: string; description?: string; labels?: string[] },
  ): Promise<IssueRecord> {
    return this.db.transaction((tx) =>
      this.issues.create(
        {
          projectId: access.project.id,
          title: input.title,
          description: input.description ?? '',
          labels: input.labels ?? [],
          authorId: caller.user.id,
          now: this.clock.now(),
        },
        tx,
      ),
    );
  }

  list(
    access: ProjectAccess,
    state: 'opened' | 'closed' | undefined,
    limit: number,
    offset: number,
  ) {
    return this.issues.list(access.project.id, state, limit, offset);
  }

  async get(access: ProjectAccess, iid: number): Promise<IssueRecord> {
    const issue = await this.issues.find(access.project.id, iid);
    if (!issue) throw ErrorTrackingError.notFound('Issue');
    return issue;
  }

  async update(
    access: ProjectAccess,
    iid: number,
    changes: IssueChanges,
  ): Promise<IssueRecord> {
    const issue = await this.issues.update(
      access.project.id,
      iid,
      changes,
      this.clock.now(),
    );
    if (!issue) throw ErrorTrackingError.notFound('Issue');
    return issue;
  }
}
