import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/** A signed-in browser; only the SHA-256 of the cookie's random id is stored. */
@Entity({ name: 'web_sessions', schema: ERROR_TRACKING_SCHEMA })
@Index('web_sessions_expires_at_idx', ['expiresAt'])
export class WebSessionEntity {
  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'web_sessions_pkey',
  })
  idDigest!: string;

  @Index('web_sessions_user_id_idx')
  @Column({ type: 'integer' })
  userId!: number;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column({ type: 'timestamptz', precision: 3 })
  expiresAt!: Date;
}
