import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/**
 * A grouping fingerprint whose error was merged into another: the flush
 * sends the fingerprint's future events to `error_id`, so a merged error
 * never comes back as a new one (and never alerts as new).
 */
@Entity({ name: 'error_merges', schema: ERROR_TRACKING_SCHEMA })
@Index('error_merges_error_id_idx', ['errorId'])
export class ErrorMergeEntity {
  @PrimaryColumn({
    type: 'integer',
    primaryKeyConstraintName: 'error_merges_pkey',
  })
  projectId!: number;

  @PrimaryColumn({
    type: 'uuid',
    primaryKeyConstraintName: 'error_merges_pkey',
  })
  fingerprint!: string;

  /** The error kept. */
  @Column({ type: 'bigint' })
  errorId!: string;

  @Column({ type: 'timestamptz', precision: 3 })
  mergedAt!: Date;
}
