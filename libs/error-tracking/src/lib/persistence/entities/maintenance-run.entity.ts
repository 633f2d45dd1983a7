import { Column, Entity, PrimaryColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/** When a periodic job last ran, so replicas run it once between them. */
@Entity({ name: 'maintenance_runs', schema: ERROR_TRACKING_SCHEMA })
export class MaintenanceRunEntity {
  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'maintenance_runs_pkey',
  })
  job!: string;

  @Column({ type: 'timestamptz', precision: 3 })
  lastRunAt!: Date;
}
