import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/** A `glpat-` token; only its SHA-256 is stored. */
@Entity({ name: 'personal_access_tokens', schema: ERROR_TRACKING_SCHEMA })
@Index('personal_access_tokens_user_id_idx', ['userId'])
export class PersonalAccessTokenEntity {
  @PrimaryGeneratedColumn({
    primaryKeyConstraintName: 'personal_access_tokens_pkey',
  })
  id!: number;

  @Column({ type: 'integer' })
  userId!: number;

  @Column({ type: 'text' })
  name!: string;

  @Index('personal_access_tokens_token_digest_key', { unique: true })
  @Column({ type: 'text' })
  tokenDigest!: string;

  @Column({ type: 'text', array: true })
  scopes!: string[];

  /** The token stops working at the start of this day (UTC), as in GitLab. */
  @Column({ type: 'date', nullable: true })
  expiresAt!: string | null;

  @Column({ type: 'boolean', default: false })
  revoked!: boolean;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  lastUsedAt!: Date | null;
}
