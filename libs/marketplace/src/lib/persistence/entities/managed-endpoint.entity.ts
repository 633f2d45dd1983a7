import { Column, Entity, PrimaryColumn } from 'typeorm';

import { MARKETPLACE_SCHEMA } from '../../common/marketplace.constants';

/** A custom endpoint of an app, handled by a service environment's handler. */
@Entity({ name: 'managed_endpoints', schema: MARKETPLACE_SCHEMA })
export class ManagedEndpointEntity {
  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'managed_endpoints_pkey',
  })
  appKey!: string;

  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'managed_endpoints_pkey',
  })
  name!: string;

  @Column({ type: 'text' })
  serviceEnvironmentId!: string;

  @Column({ type: 'text' })
  handlerName!: string;
}
