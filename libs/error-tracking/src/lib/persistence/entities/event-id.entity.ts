import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/**
 * Every stored event id of a project: the duplicate check (a partitioned
 * table cannot hold a unique index without its partition key) and the way
 * from an event id to its partition.
 */
@Entity({ name: 'event_ids', schema: ERROR_TRACKING_SCHEMA })
@Index('event_ids_timestamp_idx', ['timestamp'])
export class EventIdEntity {
  @PrimaryColumn({
    type: 'integer',
    primaryKeyConstraintName: 'event_ids_pkey',
  })
  projectId!: number;

  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'event_ids_pkey' })
  eventId!: string;

  @Column({ type: 'timestamptz', precision: 3 })
  timestamp!: Date;

  @Column({ type: 'timestamptz', precision: 3 })
  receivedAt!: Date;
}
