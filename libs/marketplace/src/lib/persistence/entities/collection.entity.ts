import { Column, Entity, PrimaryColumn } from 'typeorm';

import { MARKETPLACE_SCHEMA } from '../../common/marketplace.constants';

/** A collection an operator declared for an app, with its settings. */
@Entity({ name: 'collections', schema: MARKETPLACE_SCHEMA })
export class CollectionEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'collections_pkey' })
  appKey!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'collections_pkey' })
  name!: string;

  /** `permissions`, `schema`, `unique`, `references`, `deltaSet`. */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  settings!: Record<string, unknown>;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column({ type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
