import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/** A release as `sentry-cli releases new/finalize` records it, per project. */
@Entity({ name: 'releases', schema: ERROR_TRACKING_SCHEMA })
@Index('releases_project_id_version_key', ['projectId', 'version'], {
  unique: true,
})
export class ReleaseEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'releases_pkey' })
  id!: number;

  @Column({ type: 'integer' })
  projectId!: number;

  @Column({ type: 'text' })
  version!: string;

  @Column({ type: 'text', nullable: true })
  ref!: string | null;

  @Column({ type: 'text', nullable: true })
  url!: string | null;

  @Column({ type: 'timestamptz', precision: 3 })
  dateCreated!: Date;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  dateStarted!: Date | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  dateReleased!: Date | null;
}
