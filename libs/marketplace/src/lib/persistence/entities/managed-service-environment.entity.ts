import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import { MARKETPLACE_SCHEMA } from '../../common/marketplace.constants';

/**
 * Where a service runs (`host`, its URL) and the shared secret the backend
 * sends it, sealed: it is sent again on every call and shown by exports.
 */
@Entity({ name: 'managed_service_environments', schema: MARKETPLACE_SCHEMA })
@Index('managed_service_environments_service_id_idx', ['serviceId'])
export class ManagedServiceEnvironmentEntity {
  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'managed_service_environments_pkey',
  })
  id!: string;

  @Column({ type: 'text' })
  serviceId!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  host!: string;

  @Column({ type: 'text' })
  sealedSecret!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
