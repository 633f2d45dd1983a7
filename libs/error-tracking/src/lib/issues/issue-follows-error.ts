import { Injectable } from '@nestjs/common';

import type { Transaction } from '../persistence/error-tracking.database';
import { IssuesRepository } from './issues.repository';

/**
 * The rule "an error's linked issue follows its status", in one place:
 *
 * - resolving an error closes its linked issue when that is open
 *   (`closeOnResolve`, run in the transaction that sets the status);
 * - a regression (a new event on a `resolved` error) reopens its linked
 *   issue when that is closed (`reopenOnRegressionStep`, a step of the
 *   ingestion flush, so it commits with the event that caused it).
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

/**
 * The flush's half: a step (CTE `reopened`) after the error upsert `up`,
 * whose rows say which errors this flush regressed (`regressed`) and their
 * linked issue (`issue_iid`). `now` is the flush's timestamp parameter.
 */
export function reopenOnRegressionStep(now: string): {
  readonly name: string;
  readonly sql: string;
} {
  return {
    name: 'reopened',
    sql: `  UPDATE error_tracking.issues i
     SET state = 'opened', closed_at = NULL, updated_at = ${now}
    FROM up
   WHERE up.regressed AND up.issue_iid IS NOT NULL
     AND i.project_id = up.project_id AND i.iid = up.issue_iid
     AND i.state = 'closed'
  RETURNING i.id`,
  };
}
