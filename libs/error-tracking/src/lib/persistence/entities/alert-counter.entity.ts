import { Column, Entity, PrimaryColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../error-tracking.constants';

/**
 * Events of one error in one `frequent` window; only written for projects
 * with a `frequent` threshold.
 */
@Entity({ name: 'alert_counters', schema: ERROR_TRACKING_SCHEMA })
export class AlertCounterEntity {
  @PrimaryColumn({
    type: 'bigint',
    primaryKeyConstraintName: 'alert_counters_pkey',
  })
  errorId!: string;

  @PrimaryColumn({
    type: 'timestamptz',
    precision: 3,
    primaryKeyConstraintName: 'alert_counters_pkey',
  })
  windowStart!: Date;

  @Column({ type: 'integer' })
  events!: number;
}
