import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/**
 * One release-health session (`session` items), however many updates it
 * sent: counted once, with the worst state it reported.
 */
@Entity({ name: 'release_sessions', schema: ERROR_TRACKING_SCHEMA })
@Index('release_sessions_release_idx', ['projectId', 'release', 'environment'])
@Index('release_sessions_last_seen_idx', ['lastSeen'])
export class ReleaseSessionEntity {
  @PrimaryColumn({
    type: 'integer',
    primaryKeyConstraintName: 'release_sessions_pkey',
  })
  projectId!: number;

  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'release_sessions_pkey',
  })
  sid!: string;

  @Column({ type: 'text' })
  release!: string;

  @Column({ type: 'text' })
  environment!: string;

  @Column({ type: 'timestamptz', precision: 3 })
  startedAt!: Date;

  @Column({ type: 'timestamptz', precision: 3 })
  lastSeen!: Date;

  /** Reported `errors > 0` (or status `errored`). */
  @Column({ type: 'boolean', default: false })
  errored!: boolean;

  @Column({ type: 'boolean', default: false })
  crashed!: boolean;

  @Column({ type: 'boolean', default: false })
  abnormal!: boolean;
}
