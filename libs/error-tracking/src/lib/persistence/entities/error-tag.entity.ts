import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/**
 * How many of an error's stored events carry each tag value (the SDK's
 * tags and the ones Sentry derives): added to by the ingestion flush, taken
 * from by retention (a value no kept event carries is deleted, so every
 * row counts at least one), so the tags panel and tag searches read counts
 * instead of events.
 */
@Entity({ name: 'error_tags', schema: ERROR_TRACKING_SCHEMA })
// The errors carrying a value: a search for a rare value starts here
// instead of probing every error of the project.
@Index('error_tags_key_value_idx', ['key', 'value', 'errorId'])
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

  /**
   * The earliest time of an event with the value; none for values counted
   * before the column (read as the error's own first sighting).
   */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  firstSeen!: Date | null;

  /** The latest time or arrival of an event with the value. */
  @Column({ type: 'timestamptz', precision: 3 })
  lastSeen!: Date;
}
