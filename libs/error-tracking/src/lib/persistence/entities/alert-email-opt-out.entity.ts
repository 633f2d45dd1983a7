import { Column, Entity, PrimaryColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/** A member who does not want this project's alert e-mails. */
@Entity({ name: 'alert_email_opt_outs', schema: ERROR_TRACKING_SCHEMA })
export class AlertEmailOptOutEntity {
  @PrimaryColumn({
    type: 'integer',
    primaryKeyConstraintName: 'alert_email_opt_outs_pkey',
  })
  projectId!: number;

  @PrimaryColumn({
    type: 'integer',
    primaryKeyConstraintName: 'alert_email_opt_outs_pkey',
  })
  userId!: number;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
