import { Column, Entity, PrimaryColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/**
 * How many of an error's stored events carry each tag value (the SDK's
 * tags and the ones Sentry derives): added to by the ingestion flush, taken
 * from by retention, so the tags panel and tag searches read counts instead
 * of events.
 */
@Entity({ name: 'error_tags', schema: ERROR_TRACKING_SCHEMA })
export class ErrorTagEntity {
  @PrimaryColumn({
    type: 'bigint',
    primaryKeyConstraintName: 'error_tags_pkey',
  })
  errorId!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'error_tags_pkey' })
  key!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'error_tags_pkey' })
  value!: string;

  @Column({ type: 'bigint' })
  count!: string;

  /** The latest time or arrival of an event with the value. */
  @Column({ type: 'timestamptz', precision: 3 })
  lastSeen!: Date;
}
