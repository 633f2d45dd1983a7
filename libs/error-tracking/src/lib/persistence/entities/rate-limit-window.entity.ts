import { Column, Entity, PrimaryColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/**
 * Items a client key sent in one minute in one Sentry data category
 * (`error`, `session`, `internal`, ...), across all replicas.
 */
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

  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'rate_limit_windows_pkey',
  })
  category!: string;

  @Column({ type: 'integer' })
  quantity!: number;
}
