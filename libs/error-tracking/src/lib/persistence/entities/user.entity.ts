import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/** A person (or bot) who signs in to the web UI and owns access tokens. */
@Entity({ name: 'users', schema: ERROR_TRACKING_SCHEMA })
// Usernames and emails are unique regardless of case, as in GitLab; the
// expression indexes live in a hand-written migration.
@Index('users_username_lower_key', { synchronize: false })
@Index('users_email_lower_key', { synchronize: false })
export class UserEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'users_pkey' })
  id!: number;

  @Column({ type: 'text' })
  username!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  email!: string;

  @Column({ type: 'boolean', default: false })
  isAdmin!: boolean;

  @Column({ type: 'text', default: 'active' })
  state!: string;

  /** Argon2id PHC string; null until a password is set. */
  @Column({ type: 'text', nullable: true })
  passwordHash!: string | null;

  /**
   * From then on the web UI asks for a new password before anything else
   * (GitLab's column): set for root's generated first-boot password, cleared
   * when a password is set.
   */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  passwordExpiresAt!: Date | null;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
