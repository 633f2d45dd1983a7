import { Column, Entity, PrimaryColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../error-tracking.constants';

/** Events a client key sent in one minute, across all replicas. */
@Entity({ name: 'rate_limit_windows', schema: ERROR_TRACKING_SCHEMA })
export class RateLimitWindowEntity {
  @PrimaryColumn({
    type: 'integer',
    primaryKeyConstraintName: 'rate_limit_windows_pkey',
  })
  keyId!: number;

  @PrimaryColumn({
    type: 'timestamptz',
    precision: 3,
    primaryKeyConstraintName: 'rate_limit_windows_pkey',
  })
  windowStart!: Date;

  @Column({ type: 'integer' })
  events!: number;
}
