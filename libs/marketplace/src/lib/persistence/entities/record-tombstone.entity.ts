import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import { MARKETPLACE_SCHEMA } from '../../common/marketplace.constants';

/** A deleted record's id, for the `deleted` list of delta sets. */
@Entity({ name: 'record_tombstones', schema: MARKETPLACE_SCHEMA })
@Index('record_tombstones_deleted_at_idx', [
  'appKey',
  'collection',
  'deletedAt',
])
export class RecordTombstoneEntity {
  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'record_tombstones_pkey',
  })
  appKey!: string;

  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'record_tombstones_pkey',
  })
  collection!: string;

  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'record_tombstones_pkey',
  })
  id!: string;

  @Column({ type: 'timestamptz', precision: 3 })
  deletedAt!: Date;

  /** The record's `_acl` when it was deleted: who may see the deletion. */
  @Column({ type: 'jsonb', nullable: true })
  acl!: Record<string, unknown> | null;
}
