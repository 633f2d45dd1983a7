import { Column, Entity, PrimaryColumn } from 'typeorm';

import { MARKETPLACE_SCHEMA } from '../../common/marketplace.constants';

/**
 * An External Flex service registered through the management API: owned
 * by an application (`managedAppId`) or, when that is null, by the
 * organization (`service create`).
 */
@Entity({ name: 'managed_services', schema: MARKETPLACE_SCHEMA })
export class ManagedServiceEntity {
  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'managed_services_pkey',
  })
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ type: 'text', nullable: true })
  managedAppId!: string | null;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
