import { Column, Entity, PrimaryColumn } from 'typeorm';

import { MARKETPLACE_SCHEMA } from '../../common/marketplace.constants';

/** A collection hook of an app (`onPreSave`...), handled by a service. */
@Entity({ name: 'managed_collection_hooks', schema: MARKETPLACE_SCHEMA })
export class ManagedCollectionHookEntity {
  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'managed_collection_hooks_pkey',
  })
  appKey!: string;

  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'managed_collection_hooks_pkey',
  })
  collection!: string;

  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'managed_collection_hooks_pkey',
  })
  hook!: string;

  @Column({ type: 'text' })
  serviceEnvironmentId!: string;

  @Column({ type: 'text' })
  handlerName!: string;
}
