import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/** A minimal GitLab issue; `iid` counts from 1 per project. */
@Entity({ name: 'issues', schema: ERROR_TRACKING_SCHEMA })
@Index('issues_project_id_iid_key', ['projectId', 'iid'], { unique: true })
export class IssueEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'issues_pkey' })
  id!: number;

  @Column({ type: 'integer' })
  projectId!: number;

  @Column({ type: 'integer' })
  iid!: number;

  @Column({ type: 'text' })
  title!: string;

  /** Markdown. */
  @Column({ type: 'text', default: '' })
  description!: string;

  /** `opened` or `closed`. */
  @Column({ type: 'text', default: 'opened' })
  state!: string;

  @Column({ type: 'text', array: true, default: '{}' })
  labels!: string[];

  @Column({ type: 'integer', nullable: true })
  authorId!: number | null;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column({ type: 'timestamptz', precision: 3 })
  updatedAt!: Date;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  closedAt!: Date | null;
}
