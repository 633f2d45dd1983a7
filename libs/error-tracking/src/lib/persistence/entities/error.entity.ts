import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/**
 * One grouped error and its aggregates, kept equal to its stored events by
 * the ingestion flush (upserted once per flush) and by retention.
 */
@Entity({ name: 'errors', schema: ERROR_TRACKING_SCHEMA })
@Index('errors_project_id_fingerprint_key', ['projectId', 'fingerprint'], {
  unique: true,
})
@Index('errors_list_last_seen_idx', ['projectId', 'status', 'lastSeen', 'id'])
@Index('errors_list_first_seen_idx', ['projectId', 'status', 'firstSeen', 'id'])
@Index('errors_list_count_idx', ['projectId', 'status', 'count', 'id'])
@Index('errors_first_seen_idx', ['firstSeen'])
@Index('errors_ignored_until_idx', ['projectId', 'ignoredUntil'], {
  where: 'ignored_until IS NOT NULL',
})
export class ErrorEntity {
  @PrimaryGeneratedColumn({
    type: 'bigint',
    primaryKeyConstraintName: 'errors_pkey',
  })
  id!: string;

  @Column({ type: 'integer' })
  projectId!: number;

  /** 128-bit grouping hash (see `grouping_version`). */
  @Column({ type: 'uuid' })
  fingerprint!: string;

  /** Version of the grouping algorithm that computed `fingerprint`. */
  @Column({ type: 'smallint' })
  groupingVersion!: number;

  @Column({ type: 'text' })
  title!: string;

  @Column({ type: 'text', default: '' })
  type!: string;

  @Column({ type: 'text', default: '' })
  message!: string;

  @Column({ type: 'text', default: '' })
  culprit!: string;

  @Column({ type: 'text', nullable: true })
  platform!: string | null;

  /** Level of the latest event. */
  @Column({ type: 'text' })
  level!: string;

  /** Logger of the latest event. */
  @Column({ type: 'text', nullable: true })
  logger!: string | null;

  /** `unresolved`, `resolved` or `ignored`. */
  @Column({ type: 'text', default: 'unresolved' })
  status!: string;

  @Column({ type: 'bigint' })
  count!: string;

  @Column({ type: 'integer' })
  userCount!: number;

  @Column({ type: 'timestamptz', precision: 3 })
  firstSeen!: Date;

  @Column({ type: 'timestamptz', precision: 3 })
  lastSeen!: Date;

  @Column({ type: 'text', nullable: true })
  firstRelease!: string | null;

  @Column({ type: 'text', nullable: true })
  lastRelease!: string | null;

  /** The latest event (by timestamp): stack trace and tags come from it. */
  @Column({ type: 'uuid' })
  lastEventId!: string;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  regressedAt!: Date | null;

  /** Flush that last reopened this error (tells a flush what it reopened). */
  @Column({ type: 'uuid', nullable: true })
  regressionFlush!: string | null;

  /**
   * Start of the current `frequent` window (null when the project has no
   * `frequent` rule) and the events counted in it: kept on the row the
   * flush updates anyway, so counting costs no extra row.
   */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  alertWindowStart!: Date | null;

  @Column({ type: 'integer', default: 0 })
  alertWindowEvents!: number;

  /**
   * Ignored until a condition (Sentry's snooze): a time, a total event
   * count, a total user count; the first one reached reopens the error
   * (the flush on its next event, the reads for the time). Null when the
   * error is not ignored or ignored for good.
   */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  ignoredUntil!: Date | null;

  @Column({ type: 'bigint', nullable: true })
  ignoredUntilCount!: string | null;

  @Column({ type: 'integer', nullable: true })
  ignoredUntilUserCount!: number | null;

  /** iid of the issue created from this error, in the same project. */
  @Column({ type: 'integer', nullable: true })
  issueIid!: number | null;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column({ type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
