import { Column, Entity, PrimaryColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/**
 * Discarded data per day: what SDKs report in client reports
 * (`source = client`) and what the collector skipped (`source = server`).
 */
@Entity({ name: 'discarded_events', schema: ERROR_TRACKING_SCHEMA })
export class DiscardedEventEntity {
  @PrimaryColumn({
    type: 'integer',
    primaryKeyConstraintName: 'discarded_events_pkey',
  })
  projectId!: number;

  @PrimaryColumn({
    type: 'date',
    primaryKeyConstraintName: 'discarded_events_pkey',
  })
  day!: string;

  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'discarded_events_pkey',
  })
  source!: string;

  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'discarded_events_pkey',
  })
  reason!: string;

  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'discarded_events_pkey',
  })
  category!: string;

  @Column({ type: 'bigint' })
  quantity!: string;
}
