import { Column, Entity, PrimaryColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/**
 * Recent failed sign-ins per lower-cased username (existing or not, so the
 * throttle reveals nothing), shared by replicas.
 */
@Entity({ name: 'sign_in_throttles', schema: ERROR_TRACKING_SCHEMA })
export class SignInThrottleEntity {
  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'sign_in_throttles_pkey',
  })
  username!: string;

  @Column({ type: 'integer' })
  failures!: number;

  @Column({ type: 'timestamptz', precision: 3 })
  lastFailureAt!: Date;

  /** No attempt is checked before this instant. */
  @Column({ type: 'timestamptz', precision: 3 })
  blockedUntil!: Date;
}
