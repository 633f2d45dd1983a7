import { Injectable } from '@nestjs/common';

import type { Transaction } from '../persistence/error-tracking.database';
import { ErrorTrackingRepository } from '../persistence/error-tracking-repository';
import type { IssueChanges, IssueRecord } from './issue.types';

interface IssueRow {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  description: string;
  state: 'opened' | 'closed';
  labels: string[];
  created_at: Date;
  updated_at: Date;
  closed_at: Date | null;
}

const COLUMNS =
  'id, iid, project_id, title, description, state, labels, created_at, updated_at, closed_at';

function toIssue(row: IssueRow): IssueRecord {
  return {
    id: row.id,
    iid: row.iid,
    projectId: row.project_id,
    title: row.title,
    description: row.description,
    state: row.state,
    labels: row.labels,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    closedAt: row.closed_at,
  };
}

@Injectable()
export class IssuesRepository extends ErrorTrackingRepository {
  /** Creates an issue with the project's next iid (counter row-locked). */
  async create(
    issue: {
      projectId: number;
      title: string;
      description: string;
      labels: string[];
      authorId: number | null;
      now: Date;
    },
    tx: Transaction = this.sql,
  ): Promise<IssueRecord> {
    const rows = await tx.rows<IssueRow>(
      `WITH counter AS (
         UPDATE error_tracking.projects SET last_issue_iid = last_issue_iid + 1
          WHERE id = $1 RETURNING last_issue_iid
       )
       INSERT INTO error_tracking.issues
              (project_id, iid, title, description, labels, author_id, created_at, updated_at)
       SELECT $1, last_issue_iid, $2, $3, $4, $5, $6, $6 FROM counter
       RETURNING ${COLUMNS}`,
      [
        issue.projectId,
        issue.title,
        issue.description,
        issue.labels,
        issue.authorId,
        issue.now,
      ],
    );
    return toIssue(rows[0] as IssueRow);
  }

  async find(
    projectId: number,
    iid: number,
    tx: Transaction = this.sql,
  ): Promise<IssueRecord | undefined> {
    const rows = await tx.rows<IssueRow>(
      `SELECT ${COLUMNS} FROM error_tracking.issues WHERE project_id = $1 AND iid = $2`,
      [projectId, iid],
    );
    return rows[0] ? toIssue(rows[0]) : undefined;
  }

  async list(
    projectId: number,
    state: 'opened' | 'closed' | undefined,
    limit: number,
    offset: number,
  ): Promise<{ issues: IssueRecord[]; total: number }> {
    const params: unknown[] = [projectId, limit, offset];
    let filter = '';
    if (state) {
      params.push(state);
      filter = 'AND state = $4';
    }
    const rows = await this.sql.rows<IssueRow & { total: number }>(
      `SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM error_tracking.issues
        WHERE project_id = $1 ${filter} ORDER BY iid DESC LIMIT $2 OFFSET $3`,
      params,
    );
    let total = rows[0]?.total ?? 0;
    if (rows.length === 0 && offset > 0) {
      const counted = await this.sql.rows<{ n: number }>(
        `SELECT count(*)::int AS n FROM error_tracking.issues WHERE project_id = $1 ${filter.replace('$4', '$2')}`,
        state ? [projectId, state] : [projectId],
      );
      total = counted[0]?.n ?? 0;
    }
    return { issues: rows.map(toIssue), total };
  }

  async update(
    projectId: number,
    iid: number,
    changes: IssueChanges,
    now: Date,
    tx: Transaction = this.sql,
  ): Promise<IssueRecord | undefined> {
    const state =
      changes.stateEvent === 'close'
        ? 'closed'
        : changes.stateEvent === 'reopen'
          ? 'opened'
          : null;
    const rows = await tx.rows<IssueRow>(
      `UPDATE error_tracking.issues SET
         title = coalesce($3, title),
         description = coalesce($4, description),
         labels = coalesce($5, labels),
         closed_at = CASE WHEN $6::text = 'closed' AND state = 'opened' THEN $7
                          WHEN $6::text = 'opened' THEN NULL ELSE closed_at END,
         state = coalesce($6, state),
         updated_at = $7
       WHERE project_id = $1 AND iid = $2 RETURNING ${COLUMNS}`,
      [
        projectId,
        iid,
        changes.title ?? null,
        changes.description ?? null,
        changes.labels ?? null,
        state,
        now,
      ],
    );
    return rows[0] ? toIssue(rows[0]) : undefined;
  }
}

/**
 * The flush's half of `IssueFollowsError`: a step (CTE `reopened`) after
 * the error upsert `up`, whose rows say which errors this flush regressed
 * (`regressed`) and their linked issue (`issue_iid`). `now` is the flush's
 * timestamp parameter.
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
