import { Column, Entity, PrimaryColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/**
 * The distinct users of an error (behind `user_count`), keyed by the error's
 * grouping fingerprint so a flush records them before it upserts the error.
 * `last_seen` lets retention forget users whose events all expired.
 */
@Entity({ name: 'error_users', schema: ERROR_TRACKING_SCHEMA })
export class ErrorUserEntity {
  @PrimaryColumn({
    type: 'integer',
    primaryKeyConstraintName: 'error_users_pkey',
  })
  projectId!: number;

  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'error_users_pkey' })
  fingerprint!: string;

  /** 128-bit hash of `id:<id>`, else `email:`, `username:`, `ip:`. */
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'error_users_pkey' })
  userKey!: string;

  @Column({ type: 'timestamptz', precision: 3 })
  lastSeen!: Date;
}
