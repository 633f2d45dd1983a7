import { Column, Entity, PrimaryColumn } from 'typeorm';

import { MARKETPLACE_SCHEMA } from '../../common/marketplace.constants';

/**
 * A Kinvey application of the management API: a named group of
 * environments, each of them a marketplace app (`apps`) of its own.
 */
@Entity({ name: 'managed_apps', schema: MARKETPLACE_SCHEMA })
export class ManagedAppEntity {
  /** A UUID v4: kinvey-cli takes an argument for an id only in that form. */
  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'managed_apps_pkey',
  })
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
