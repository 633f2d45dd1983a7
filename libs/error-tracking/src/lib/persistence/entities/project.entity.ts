import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/** A project; its error-tracking setting lives on the same row. */
@Entity({ name: 'projects', schema: ERROR_TRACKING_SCHEMA })
export class ProjectEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'projects_pkey' })
  id!: number;

  @Column({ type: 'text' })
  name!: string;

  @Index('projects_path_key', { unique: true })
  @Column({ type: 'text' })
  path!: string;

  @Column({ type: 'text', default: '' })
  description!: string;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  /** Error tracking enabled (GitLab's setting `active`). */
  @Column({ type: 'boolean', default: false })
  trackingActive!: boolean;

  /** The integrated (built-in) backend rather than an external Sentry. */
  @Column({ type: 'boolean', default: true })
  trackingIntegrated!: boolean;

  /** Last issue iid handed out in this project. */
  @Column({ type: 'integer', default: 0 })
  lastIssueIid!: number;

  /** `frequent` alerts: events within the window that fire one; null = off. */
  @Column({ type: 'integer', nullable: true })
  alertFrequentThreshold!: number | null;

  @Column({ type: 'integer', default: 60 })
  alertFrequentWindowMinutes!: number;
}
