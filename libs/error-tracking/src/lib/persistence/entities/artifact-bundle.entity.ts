import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/** An assembled artifact bundle of one project (its files in `artifact_files`). */
@Entity({ name: 'artifact_bundles', schema: ERROR_TRACKING_SCHEMA })
@Index('artifact_bundles_project_id_checksum_key', ['projectId', 'checksum'], {
  unique: true,
})
@Index('artifact_bundles_created_at_idx', ['createdAt'])
export class ArtifactBundleEntity {
  @PrimaryGeneratedColumn({
    primaryKeyConstraintName: 'artifact_bundles_pkey',
  })
  id!: number;

  @Column({ type: 'integer' })
  projectId!: number;

  /** SHA-1 of the whole bundle (the zip), as sentry-cli computes it. */
  @Column({ type: 'text' })
  checksum!: string;

  /** The manifest's `debug_id` (sentry-cli's "Bundle ID"). */
  @Column({ type: 'uuid', nullable: true })
  bundleId!: string | null;

  @Column({ type: 'text', nullable: true })
  release!: string | null;

  @Column({ type: 'text', nullable: true })
  dist!: string | null;

  /** Bytes of the zip as uploaded. */
  @Column({ type: 'integer' })
  size!: number;

  @Column({ type: 'integer' })
  fileCount!: number;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
