import { Column, Entity, PrimaryColumn } from 'typeorm';

import { MARKETPLACE_SCHEMA } from '../../common/marketplace.constants';

/**
 * App-credential signups per app, client address and clock hour, shared
 * by every replica; its key makes the limit hold under concurrent signups.
 * Windows older than an hour are deleted by the next signup.
 */
@Entity({ name: 'signup_counts', schema: MARKETPLACE_SCHEMA })
export class SignupCountEntity {
  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'signup_counts_pkey',
  })
  appKey!: string;

  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'signup_counts_pkey',
  })
  client!: string;

  @PrimaryColumn({
    type: 'timestamptz',
    precision: 3,
    primaryKeyConstraintName: 'signup_counts_pkey',
  })
  windowStart!: Date;

  @Column({ type: 'integer' })
  signups!: number;
}
