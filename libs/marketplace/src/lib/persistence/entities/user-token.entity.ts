import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import { MARKETPLACE_SCHEMA } from '../../common/marketplace.constants';

/** A session token (`Kinvey <authtoken>`); only its SHA-256 is stored. */
@Entity({ name: 'user_tokens', schema: MARKETPLACE_SCHEMA })
@Index('user_tokens_app_key_user_id_idx', ['appKey', 'userId'])
export class UserTokenEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'user_tokens_pkey' })
  digest!: string;

  @Column({ type: 'text' })
  appKey!: string;

  @Column({ type: 'text' })
  userId!: string;

  @Column({ type: 'timestamptz', precision: 3 })
  expiresAt!: Date;

  @Column({ type: 'boolean', default: false })
  revoked!: boolean;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
