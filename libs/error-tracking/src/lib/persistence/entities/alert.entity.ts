import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/**
 * The alert outbox: one row per error, trigger and window, written by the
 * transaction that recorded the trigger (the ingestion flush), so a crash
 * never loses one and the unique key makes a storm of events one alert.
 */
@Entity({ name: 'alerts', schema: ERROR_TRACKING_SCHEMA })
@Index(
  'alerts_error_id_trigger_window_start_key',
  ['errorId', 'trigger', 'windowStart'],
  {
    unique: true,
  },
)
@Index('alerts_pending_idx', ['id'], { where: 'fanned_out_at IS NULL' })
@Index('alerts_created_at_idx', ['createdAt'])
export class AlertEntity {
  @PrimaryGeneratedColumn({
    type: 'bigint',
    primaryKeyConstraintName: 'alerts_pkey',
  })
  id!: string;

  @Column({ type: 'integer' })
  projectId!: number;

  @Column({ type: 'bigint' })
  errorId!: string;

  /** `new`, `regression` or `frequent`. */
  @Column({ type: 'text' })
  trigger!: string;

  /** The window the alert stands for (its time for `new` and `regression`). */
  @Column({ type: 'timestamptz', precision: 3 })
  windowStart!: Date;

  /** The event that triggered it (the flush's latest for the error). */
  @Column({ type: 'uuid' })
  eventId!: string;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  /** When the worker turned it into deliveries (null: not yet). */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  fannedOutAt!: Date | null;
}
