import { Column, Entity, PrimaryColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/** Events of one error per hour (by event timestamp): the frequency graph. */
@Entity({ name: 'error_hourly_counts', schema: ERROR_TRACKING_SCHEMA })
export class ErrorHourlyCountEntity {
  @PrimaryColumn({
    type: 'bigint',
    primaryKeyConstraintName: 'error_hourly_counts_pkey',
  })
  errorId!: string;

  @PrimaryColumn({
    type: 'timestamptz',
    precision: 3,
    primaryKeyConstraintName: 'error_hourly_counts_pkey',
  })
  hour!: Date;

  @Column({ type: 'integer' })
  count!: number;
}
