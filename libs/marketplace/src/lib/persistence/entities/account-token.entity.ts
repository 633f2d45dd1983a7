import { Column, Entity, PrimaryColumn } from 'typeorm';

import { MARKETPLACE_SCHEMA } from '../../common/marketplace.constants';

/**
 * A token mailed to a user: to set a new password (`password-reset`) or
 * to confirm an address (`email-verification`). Only its SHA-256 is
 * stored; it works once, until `expiresAt`.
 */
@Entity({ name: 'account_tokens', schema: MARKETPLACE_SCHEMA })
export class AccountTokenEntity {
  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'account_tokens_pkey',
  })
  digest!: string;

  @Column({ type: 'text' })
  appKey!: string;

  @Column({ type: 'text' })
  userId!: string;

  @Column({ type: 'text' })
  kind!: string;

  /** The address the mail went to (what a verification confirms). */
  @Column({ type: 'text' })
  email!: string;

  @Column({ type: 'timestamptz', precision: 3 })
  expiresAt!: Date;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  usedAt!: Date | null;
}
