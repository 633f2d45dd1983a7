import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import { MARKETPLACE_SCHEMA } from '../../common/marketplace.constants';

/**
 * An operator account of the management API (kinvey-cli's login): made
 * by `marketplace:operators:create`, its password an argon2id hash.
 */
@Entity({ name: 'operators', schema: MARKETPLACE_SCHEMA })
@Index('operators_email_key', ['email'], { unique: true })
export class OperatorEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'operators_pkey' })
  id!: string;

  /** Lower-cased, so one address is one account. */
  @Column({ type: 'text' })
  email!: string;

  @Column({ type: 'text' })
  passwordHash!: string;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
