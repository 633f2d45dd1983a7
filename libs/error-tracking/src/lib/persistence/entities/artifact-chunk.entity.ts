import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/**
 * One uploaded piece of an artifact bundle (sentry-cli's chunk upload),
 * kept per uploader until `assemble` joins it into a bundle (then deleted)
 * or retention expires it.
 */
@Entity({ name: 'artifact_chunks', schema: ERROR_TRACKING_SCHEMA })
@Index('artifact_chunks_created_at_idx', ['createdAt'])
export class ArtifactChunkEntity {
  @PrimaryColumn({
    type: 'integer',
    primaryKeyConstraintName: 'artifact_chunks_pkey',
  })
  userId!: number;

  /** SHA-1 of the (uncompressed) chunk, 40 lowercase hex. */
  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'artifact_chunks_pkey',
  })
  checksum!: string;

  @Column({ type: 'bytea' })
  data!: Buffer;

  @Column({ type: 'integer' })
  size!: number;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
