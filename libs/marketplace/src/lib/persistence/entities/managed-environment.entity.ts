import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import { MARKETPLACE_SCHEMA } from '../../common/marketplace.constants';

/**
 * A Kinvey environment: the marketplace app `appKey` in a managed app.
 * Kinvey's management API hands an environment's secrets out again, so
 * they are kept sealed (AES-256-GCM) beside the app's digests.
 */
@Entity({ name: 'managed_environments', schema: MARKETPLACE_SCHEMA })
@Index('managed_environments_managed_app_id_idx', ['managedAppId'])
export class ManagedEnvironmentEntity {
  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'managed_environments_pkey',
  })
  appKey!: string;

  @Column({ type: 'text' })
  managedAppId!: string;

  @Column({ type: 'text' })
  sealedAppSecret!: string;

  @Column({ type: 'text' })
  sealedMasterSecret!: string;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
