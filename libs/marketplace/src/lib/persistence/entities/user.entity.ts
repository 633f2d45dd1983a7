import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import { MARKETPLACE_SCHEMA } from '../../common/marketplace.constants';

/**
 * A user of an app. `doc` is the user as clients see it (no password);
 * the password hash lives in its own column.
 */
@Entity({ name: 'users', schema: MARKETPLACE_SCHEMA })
@Index('users_app_key_username_key', ['appKey', 'username'], { unique: true })
export class UserEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'users_pkey' })
  appKey!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'users_pkey' })
  id!: string;

  @Column({ type: 'text' })
  username!: string;

  @Column({ type: 'jsonb' })
  doc!: Record<string, unknown>;

  @Column({ type: 'text' })
  passwordHash!: string;

  /** Soft-deleted users cannot log in and are hidden from lookups. */
  @Column({ type: 'boolean', default: false })
  disabled!: boolean;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column({ type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
