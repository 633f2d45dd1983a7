import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import { MARKETPLACE_SCHEMA } from '../../common/marketplace.constants';

/**
 * A record's folded value of a unique field beyond its collection's first
 * (the first is `records.unique_name`): one row per record and field, null
 * when the record has no value, so an update rewrites its rows in place
 * (`ON CONFLICT`) and two concurrent updates of a record never leave both
 * values behind. The unique index makes concurrent writers of one value
 * end in one winner.
 */
@Entity({ name: 'record_unique_values', schema: MARKETPLACE_SCHEMA })
@Index(
  'record_unique_values_value_key',
  ['appKey', 'collection', 'field', 'value'],
  {
    unique: true,
  },
)
export class RecordUniqueValueEntity {
  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'record_unique_values_pkey',
  })
  appKey!: string;

  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'record_unique_values_pkey',
  })
  collection!: string;

  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'record_unique_values_pkey',
  })
  recordId!: string;

  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'record_unique_values_pkey',
  })
  field!: string;

  @Column({ type: 'text', nullable: true })
  value!: string | null;
}
