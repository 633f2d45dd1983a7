import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import { EVENTS_SCHEMA } from '../common/events.constants';

/** One event record; `version` counts writes and feeds the ETag. */
@Entity({ name: 'events', schema: EVENTS_SCHEMA })
@Index('events_created_at_id_idx', ['createdAt', 'id'])
export class EventRecordEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'events_pkey' })
  id!: string;

  @Column({ type: 'text' })
  title!: string;

  @Column({ type: 'text', default: '' })
  description!: string;

  @Column({ type: 'integer', default: 1 })
  version!: number;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column({ type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
