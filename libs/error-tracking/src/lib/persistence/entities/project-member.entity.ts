import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/** A user's role in a project (GitLab access levels 10..50). */
@Entity({ name: 'project_members', schema: ERROR_TRACKING_SCHEMA })
@Index('project_members_user_id_idx', ['userId'])
export class ProjectMemberEntity {
  @PrimaryColumn({
    type: 'integer',
    primaryKeyConstraintName: 'project_members_pkey',
  })
  projectId!: number;

  @PrimaryColumn({
    type: 'integer',
    primaryKeyConstraintName: 'project_members_pkey',
  })
  userId!: number;

  @Column({ type: 'smallint' })
  accessLevel!: number;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
