import { Injectable } from '@nestjs/common';

import type { Transaction } from '../persistence/error-tracking.database';
import { IssuesRepository } from './issues.repository';

/**
 * The rule's other half is SQL, so it lives with the issues' other SQL; it
 * is re-exported here so the flush takes it from the rule, not from a
 * repository it has no other business with.
 */
export { reopenOnRegressionStep } from './issues.repository';

/**
 * The rule "an error's linked issue follows its status", in one place:
 *
 * - resolving an error closes its linked issue when that is open
 *   (`closeOnResolve`, run in the transaction that sets the status);
 * - a regression (a new event on a `resolved` error) reopens its linked
 *   issue when that is closed (`reopenOnRegressionStep`, a step of the
 *   ingestion flush, so it commits with the event that caused it; its SQL
 *   is in `issues.repository.ts`).
 *
 * Setting an error back to `unresolved` by hand, or ignoring it, leaves the
 * issue as it is.
 */
@Injectable()
export class IssueFollowsError {
  constructor(private readonly issues: IssuesRepository) {}

  /**
   * After an error's status was set: closes its open issue if the error is
   * now resolved. Returns the iid of the issue it closed, else null.
   */
  async closeOnResolve(
    error: {
      readonly projectId: number;
      readonly status: string;
      readonly issueIid: number | null;
    },
    now: Date,
    tx?: Transaction,
  ): Promise<number | null> {
    if (error.status !== 'resolved' || error.issueIid === null) return null;
    const issue = await this.issues.find(error.projectId, error.issueIid, tx);
    if (issue?.state !== 'opened') return null;
    await this.issues.update(
      error.projectId,
      issue.iid,
      { stateEvent: 'close' },
      now,
      tx,
    );
    return issue.iid;
  }
}
