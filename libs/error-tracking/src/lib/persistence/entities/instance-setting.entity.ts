import { Column, Entity, PrimaryColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/**
 * Facts about the installation every replica must agree on (the alerts
 * key's check value), one row each.
 */
@Entity({ name: 'instance_settings', schema: ERROR_TRACKING_SCHEMA })
export class InstanceSettingEntity {
  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'instance_settings_pkey',
  })
  name!: string;

  @Column({ type: 'text' })
  value!: string;
}
