import { Column, Entity, PrimaryColumn } from 'typeorm';

import { MARKETPLACE_SCHEMA } from '../../common/marketplace.constants';

/**
 * When account mail of a kind last went to a recipient (a user, or an
 * address for forgotten usernames). Its key makes "one a minute" hold
 * under concurrent requests: they meet on one row.
 */
@Entity({ name: 'account_mail_quiet', schema: MARKETPLACE_SCHEMA })
export class AccountMailQuietEntity {
  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'account_mail_quiet_pkey',
  })
  appKey!: string;

  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'account_mail_quiet_pkey',
  })
  kind!: string;

  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'account_mail_quiet_pkey',
  })
  recipient!: string;

  @Column({ type: 'timestamptz', precision: 3 })
  sentAt!: Date;
}
