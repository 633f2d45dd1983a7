import { Injectable } from '@nestjs/common';

import { AccessLevel } from '../common/error-tracking.constants';
import type { Transaction } from '../persistence/error-tracking.database';
import { ErrorTrackingRepository } from '../persistence/error-tracking-repository';
import { PROJECT_COLUMNS, toProject } from './project-row';
import type { ProjectRow } from './project-row';
import type {
  MemberRecord,
  ProjectOrder,
  ProjectRecord,
} from './project.types';

interface MemberRow {
  user_id: number;
  username: string;
  name: string;
  email: string;
  is_admin: boolean;
  state: string;
  password_expires_at: Date | null;
  user_created_at: Date;
  access_level: number;
  created_at: Date;
}

const MEMBER_COLUMNS = `u.id AS user_id, u.username, u.name, u.email, u.is_admin, u.state,
  u.password_expires_at, u.created_at AS user_created_at, m.access_level, m.created_at`;

function toMember(row: MemberRow): MemberRecord {
  return {
    user: {
      id: row.user_id,
      username: row.username,
      name: row.name,
      email: row.email,
      isAdmin: row.is_admin,
      state: row.state,
      passwordExpiresAt: row.password_expires_at,
      createdAt: row.user_created_at,
    },
    accessLevel: row.access_level,
    createdAt: row.created_at,
  };
}

@Injectable()
export class ProjectsRepository extends ErrorTrackingRepository {
  /** Creates the project and makes `ownerId` its owner, in one transaction. */
  createWithOwner(
    project: {
      name: string;
      path: string;
      description: string;
      createdAt: Date;
    },
    ownerId: number,
  ): Promise<ProjectRecord> {
    return this.sql.transaction(async (tx) => {
      const rows = await tx.rows<ProjectRow>(
        `INSERT INTO error_tracking.projects AS p (name, path, description, created_at)
         VALUES ($1, $2, $3, $4) RETURNING ${PROJECT_COLUMNS}`,
        [project.name, project.path, project.description, project.createdAt],
      );
      const created = toProject(rows[0] as ProjectRow);
      await tx.rows(
        `INSERT INTO error_tracking.project_members (project_id, user_id, access_level, created_at)
         VALUES ($1, $2, 50, $3)`,
        [created.id, ownerId, project.createdAt],
      );
      return created;
    });
  }

  /** The project by id or path, with `userId`'s access level (null: not a member). */
  async findWithAccess(
    idOrPath: { id: number } | { path: string },
    userId: number,
  ): Promise<
    { project: ProjectRecord; accessLevel: number | null } | undefined
  > {
    const byId = 'id' in idOrPath;
    const rows = await this.sql.rows<
      ProjectRow & { access_level: number | null }
    >(
      `SELECT ${PROJECT_COLUMNS}, m.access_level
         FROM error_tracking.projects p
         LEFT JOIN error_tracking.project_members m ON m.project_id = p.id AND m.user_id = $2
        WHERE ${byId ? 'p.id = $1' : 'p.path = $1'}`,
      [byId ? idOrPath.id : idOrPath.path, userId],
    );
    const row = rows[0];
    return row
      ? { project: toProject(row), accessLevel: row.access_level }
      : undefined;
  }

  /**
   * A page of projects, each with `userId`'s access level: only the
   * projects `userId` is a member of, or every project (and no level) when
   * `userId` is null. Ordered by `order` (newest first by default); the page
   * starts at `offset` or, without one (keyset pagination, no total counted),
   * after the id `after`.
   */
  async list(
    userId: number | null,
    page: {
      limit: number;
      offset?: number;
      order?: ProjectOrder;
      after?: number;
    },
  ): Promise<{
    projects: Array<{ project: ProjectRecord; accessLevel: number | null }>;
    total: number;
  }> {
    const order = page.order ?? { by: 'created_at', ascending: false };
    const direction = order.ascending ? 'ASC' : 'DESC';
    // Ties broken by id, so that pages never overlap.
    const orderBy =
      order.by === 'id'
        ? `p.id ${direction}`
        : `p.${order.by} ${direction}, p.id ${direction}`;
    const values: unknown[] = [page.limit, page.offset ?? 0];
    const where: string[] = [];
    if (userId !== null) values.push(userId);
    if (page.after !== undefined) {
      values.push(page.after);
      where.push(`p.id ${order.ascending ? '>' : '<'} $${values.length}`);
    }
    const from =
      userId === null
        ? 'error_tracking.projects p'
        : 'error_tracking.projects p JOIN error_tracking.project_members m ON m.project_id = p.id AND m.user_id = $3';
    const keyset = page.offset === undefined;
    const rows = await this.sql.rows<
      ProjectRow & { access_level: number | null; total: number }
    >(
      `SELECT ${PROJECT_COLUMNS}, ${userId === null ? 'NULL::int' : 'm.access_level'} AS access_level,
              ${keyset ? '0' : 'count(*) OVER ()::int'} AS total
         FROM ${from} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY ${orderBy} LIMIT $1 OFFSET $2`,
      values,
    );
    let total = rows[0]?.total ?? 0;
    if (rows.length === 0 && (page.offset ?? 0) > 0) {
      const counted = await this.sql.rows<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${from.replace('$3', '$1')}`,
        userId === null ? [] : [userId],
      );
      total = counted[0]?.n ?? 0;
    }
    return {
      projects: rows.map((row) => ({
        project: toProject(row),
        accessLevel: row.access_level,
      })),
      total,
    };
  }

  async listMembers(
    projectId: number,
    limit: number,
    offset: number,
  ): Promise<{ members: MemberRecord[]; total: number }> {
    const rows = await this.sql.rows<MemberRow & { total: number }>(
      `SELECT ${MEMBER_COLUMNS}, count(*) OVER ()::int AS total
         FROM error_tracking.project_members m
         JOIN error_tracking.users u ON u.id = m.user_id
        WHERE m.project_id = $1 ORDER BY u.id LIMIT $2 OFFSET $3`,
      [projectId, limit, offset],
    );
    return { members: rows.map(toMember), total: rows[0]?.total ?? 0 };
  }

  async findMember(
    projectId: number,
    userId: number,
  ): Promise<MemberRecord | undefined> {
    const rows = await this.sql.rows<MemberRow>(
      `SELECT ${MEMBER_COLUMNS}
         FROM error_tracking.project_members m
         JOIN error_tracking.users u ON u.id = m.user_id
        WHERE m.project_id = $1 AND m.user_id = $2`,
      [projectId, userId],
    );
    return rows[0] ? toMember(rows[0]) : undefined;
  }

  /** Adds a member; false when already one. */
  async addMember(
    projectId: number,
    userId: number,
    accessLevel: number,
    now: Date,
  ): Promise<boolean> {
    const rows = await this.sql.rows(
      `INSERT INTO error_tracking.project_members (project_id, user_id, access_level, created_at)
       VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING user_id`,
      [projectId, userId, accessLevel, now],
    );
    return rows.length > 0;
  }

  /**
   * Locks the project's owner memberships until `tx` ends and counts them,
   * so that removals of owners run one after the other.
   */
  async lockOwners(projectId: number, tx: Transaction): Promise<number> {
    const rows = await tx.rows(
      `SELECT user_id FROM error_tracking.project_members
        WHERE project_id = $1 AND access_level = $2 FOR UPDATE`,
      [projectId, AccessLevel.Owner],
    );
    return rows.length;
  }

  async removeMember(
    projectId: number,
    userId: number,
    tx: Transaction = this.sql,
  ): Promise<void> {
    await tx.rows(
      'DELETE FROM error_tracking.project_members WHERE project_id = $1 AND user_id = $2',
      [projectId, userId],
    );
  }
}
