import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

import { MARKETPLACE_SCHEMA } from '../../common/marketplace.constants';

/**
 * The outbox of users' account mail: written in the transaction of the
 * request that asks for it, sent by the worker (`AccountMailWorker`) with
 * retries, so no answer waits on SMTP. A worker claims a row by moving
 * `next_attempt_at` past its lease. Rows stay a day after they settle:
 * the limits per address and per app count them.
 */
@Entity({ name: 'account_mail', schema: MARKETPLACE_SCHEMA })
@Index('account_mail_due_idx', ['nextAttemptAt'], {
  where: "status = 'pending'",
})
@Index('account_mail_mailbox_idx', ['appKey', 'mailbox', 'createdAt'])
@Index('account_mail_app_idx', ['appKey', 'createdAt'])
export class AccountMailEntity {
  @PrimaryGeneratedColumn({
    type: 'bigint',
    primaryKeyConstraintName: 'account_mail_pkey',
  })
  id!: string;

  @Column({ type: 'text' })
  appKey!: string;

  /** `password-reset`, `email-verification` or `forgot-username`. */
  @Column({ type: 'text' })
  kind!: string;

  /** The one address the mail goes to, as the user wrote it. */
  @Column({ type: 'text' })
  recipient!: string;

  /** `recipient` in lower case: what the limits per address count. */
  @Column({ type: 'text' })
  mailbox!: string;

  @Column({ type: 'text' })
  subject!: string;

  /** Null once settled: a pending body may carry a live link. */
  @Column({ type: 'text', nullable: true })
  body!: string | null;

  /** `pending`, `sent` or `failed`. */
  @Column({ type: 'text', default: 'pending' })
  status!: string;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ type: 'timestamptz', precision: 3 })
  nextAttemptAt!: Date;

  @Column({ type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
