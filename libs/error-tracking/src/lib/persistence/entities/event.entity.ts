import { Column, Entity, PrimaryColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/**
 * One stored occurrence. The table is partitioned by day of `received_at`
 * (retention drops whole partitions), which TypeORM cannot express: it is
 * created by the hand-written migration `CreateEventsPartitioned`, and this
 * entity is documentation only (`synchronize: false`).
 */
@Entity({ name: 'events', schema: ERROR_TRACKING_SCHEMA, synchronize: false })
export class EventEntity {
  @PrimaryColumn({ type: 'bigint' })
  errorId!: string;

  @PrimaryColumn({ type: 'timestamptz', precision: 3 })
  timestamp!: Date;

  @PrimaryColumn({ type: 'uuid' })
  eventId!: string;

  @PrimaryColumn({ type: 'timestamptz', precision: 3 })
  receivedAt!: Date;

  @Column({ type: 'integer' })
  projectId!: number;

  @Column({ type: 'text' })
  level!: string;

  @Column({ type: 'text', nullable: true })
  release!: string | null;

  @Column({ type: 'text' })
  environment!: string;

  /**
   * The tags counted and searched: Sentry's derived ones and the SDK's
   * (`eventTags`); null for events stored before they were kept.
   */
  @Column({ type: 'jsonb', nullable: true })
  tags!: Record<string, string> | null;

  /** The whole normalised event. */
  @Column({ type: 'jsonb' })
  payload!: unknown;
}
