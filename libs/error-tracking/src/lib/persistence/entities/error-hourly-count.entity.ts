import { Column, Entity, PrimaryColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/**
 * Events of one error per hour (by event timestamp) and environment: the
 * frequency charts, of every environment (summed) or of one. Hours counted
 * before environments were kept have the environment `''`.
 */
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

  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'error_hourly_counts_pkey',
  })
  environment!: string;

  @Column({ type: 'integer' })
  count!: number;
}
