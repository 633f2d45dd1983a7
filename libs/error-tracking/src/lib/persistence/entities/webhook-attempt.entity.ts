import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/** The delivery log: one row per request sent to a webhook. */
@Entity({ name: 'webhook_attempts', schema: ERROR_TRACKING_SCHEMA })
@Index('webhook_attempts_hook_id_id_idx', ['hookId', 'id'])
export class WebhookAttemptEntity {
  @PrimaryGeneratedColumn({
    type: 'bigint',
    primaryKeyConstraintName: 'webhook_attempts_pkey',
  })
  id!: string;

  @Column({ type: 'integer' })
  hookId!: number;

  @Column({ type: 'uuid' })
  eventUuid!: string;

  /** `new`, `regression`, `frequent` or `test`. */
  @Column({ type: 'text' })
  trigger!: string;

  @Column({ type: 'integer' })
  attempt!: number;

  /** HTTP status, null when no response came (timeout, refused, blocked). */
  @Column({ type: 'integer', nullable: true })
  responseStatus!: number | null;

  /** Seconds. */
  @Column({ type: 'double precision' })
  executionDuration!: number;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
