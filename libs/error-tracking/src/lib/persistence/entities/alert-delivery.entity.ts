import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/**
 * One alert to one receiver (a webhook, or one member's e-mail), retried
 * under the same `event_uuid` until delivered or failed. A worker claims it
 * by moving `next_attempt_at` past its lease, so a crashed worker's claim
 * runs out and another replica picks the delivery up.
 */
@Entity({ name: 'alert_deliveries', schema: ERROR_TRACKING_SCHEMA })
@Index('alert_deliveries_due_idx', ['nextAttemptAt'], {
  where: "status = 'pending'",
})
@Index('alert_deliveries_alert_id_idx', ['alertId'])
export class AlertDeliveryEntity {
  @PrimaryGeneratedColumn({
    type: 'bigint',
    primaryKeyConstraintName: 'alert_deliveries_pkey',
  })
  id!: string;

  /** Null for a hook's test delivery. */
  @Column({ type: 'bigint', nullable: true })
  alertId!: string | null;

  @Column({ type: 'integer' })
  projectId!: number;

  /** `webhook` or `email`. */
  @Column({ type: 'text' })
  channel!: string;

  @Column({ type: 'integer', nullable: true })
  hookId!: number | null;

  /** The member an e-mail goes to. */
  @Column({ type: 'integer', nullable: true })
  userId!: number | null;

  /** `X-Gitlab-Event-UUID` and `Idempotency-Key`: the same on every retry. */
  @Column({ type: 'uuid' })
  eventUuid!: string;

  @Column({ type: 'text' })
  trigger!: string;

  /** `pending`, `delivered` or `failed`. */
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

  @Column({ type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
