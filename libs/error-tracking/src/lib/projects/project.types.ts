import type { UserRecord } from '../accounts/account.types';

export interface ProjectRecord {
  readonly id: number;
  readonly name: string;
  readonly path: string;
  readonly description: string;
  readonly createdAt: Date;
  readonly trackingActive: boolean;
  readonly trackingIntegrated: boolean;
}

export interface MemberRecord {
  readonly user: UserRecord;
  readonly accessLevel: number;
  readonly createdAt: Date;
}

/** A project as one caller may use it. */
export interface ProjectAccess {
  readonly project: ProjectRecord;
  /** The caller's access level (50 for admins). */
  readonly accessLevel: number;
}

export const PROJECT_ORDERS = ['id', 'name', 'path', 'created_at'] as const;

/** How project lists are ordered (GitLab's `order_by` and `sort`). */
export interface ProjectOrder {
  readonly by: (typeof PROJECT_ORDERS)[number];
  readonly ascending: boolean;
}
