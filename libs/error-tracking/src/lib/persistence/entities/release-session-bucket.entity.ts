import { Column, Entity, PrimaryColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/** Pre-aggregated sessions (`sessions` items), per started minute. */
@Entity({ name: 'release_session_buckets', schema: ERROR_TRACKING_SCHEMA })
export class ReleaseSessionBucketEntity {
  @PrimaryColumn({
    type: 'integer',
    primaryKeyConstraintName: 'release_session_buckets_pkey',
  })
  projectId!: number;

  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'release_session_buckets_pkey',
  })
  release!: string;

  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'release_session_buckets_pkey',
  })
  environment!: string;

  @PrimaryColumn({
    type: 'timestamptz',
    precision: 3,
    primaryKeyConstraintName: 'release_session_buckets_pkey',
  })
  started!: Date;

  @Column({ type: 'integer', default: 0 })
  exited!: number;

  @Column({ type: 'integer', default: 0 })
  errored!: number;

  @Column({ type: 'integer', default: 0 })
  crashed!: number;

  @Column({ type: 'integer', default: 0 })
  abnormal!: number;
}
