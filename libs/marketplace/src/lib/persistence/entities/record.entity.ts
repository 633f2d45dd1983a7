import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import { MARKETPLACE_SCHEMA } from '../../common/marketplace.constants';

/**
 * One record of a collection. `doc` holds the whole record as the client
 * sees it (`_id`, `_acl`, `_kmd`, every field; file references reduced),
 * which is what the query compiler runs against.
 */
@Entity({ name: 'records', schema: MARKETPLACE_SCHEMA })
// GIN over the documents (created by the migration; TypeORM cannot describe it).
@Index('records_doc_idx', { synchronize: false })
// Text-field expression indexes (migration RecordsTextFieldIndexes).
@Index('records_id_producer_idx', { synchronize: false })
@Index('records_name_idx', { synchronize: false })
@Index('records_kmd_lmt_idx', { synchronize: false })
@Index('records_lmt_idx', ['appKey', 'collection', 'updatedAt'])
@Index('records_created_idx', ['appKey', 'collection', 'createdAt', 'id'])
@Index('records_unique_name_key', ['appKey', 'collection', 'uniqueName'], {
  unique: true,
})
export class RecordEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'records_pkey' })
  appKey!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'records_pkey' })
  collection!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'records_pkey' })
  id!: string;

  @Column({ type: 'jsonb' })
  doc!: Record<string, unknown>;

  @Column({ type: 'text' })
  creator!: string;

  /**
   * The folded value of the collection's first unique field (products:
   * `lower(btrim(name))`; null without one): the unique index on it makes
   * concurrent creates of one value end in one winner. Further unique
   * fields: `record_unique_values`.
   */
  @Column({ type: 'text', nullable: true })
  uniqueName!: string | null;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column({ type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
