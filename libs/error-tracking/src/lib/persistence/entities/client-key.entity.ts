import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/** A DSN public key (`glet_` + 32 hex) of one project. */
@Entity({ name: 'client_keys', schema: ERROR_TRACKING_SCHEMA })
@Index('client_keys_project_id_idx', ['projectId', 'id'])
export class ClientKeyEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'client_keys_pkey' })
  id!: number;

  @Column({ type: 'integer' })
  projectId!: number;

  @Index('client_keys_public_key_key', { unique: true })
  @Column({ type: 'text' })
  publicKey!: string;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
