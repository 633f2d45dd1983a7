import { Column, Entity, PrimaryColumn } from 'typeorm';

import { MARKETPLACE_SCHEMA } from '../../common/marketplace.constants';

/**
 * Login attempts per app and username (existing or not, so the throttle
 * reveals nothing), shared by every replica. UNLOGGED (a migration:
 * TypeORM has no word for it): counters need no crash safety.
 */
@Entity({ name: 'login_attempts', schema: MARKETPLACE_SCHEMA })
export class LoginAttemptEntity {
  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'login_attempts_pkey',
  })
  appKey!: string;

  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'login_attempts_pkey',
  })
  username!: string;

  @Column({ type: 'integer' })
  failures!: number;

  @Column({ type: 'timestamptz', precision: 3 })
  lastFailureAt!: Date;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  lockedUntil!: Date | null;
}
