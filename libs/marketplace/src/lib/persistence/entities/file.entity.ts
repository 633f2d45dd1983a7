import { Column, Entity, PrimaryColumn } from 'typeorm';

import { MARKETPLACE_SCHEMA } from '../../common/marketplace.constants';

/** A file's metadata as clients see it (`doc`) plus its upload state. */
@Entity({ name: 'files', schema: MARKETPLACE_SCHEMA })
export class FileEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'files_pkey' })
  appKey!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'files_pkey' })
  id!: string;

  @Column({ type: 'jsonb' })
  doc!: Record<string, unknown>;

  @Column({ type: 'text' })
  creator!: string;

  /** Declared size: the upload is complete when `storedBytes` reaches it. */
  @Column({ type: 'bigint' })
  size!: string;

  @Column({ type: 'bigint', default: 0 })
  storedBytes!: string;

  /** Bumped on every replacement, so old upload URLs stop working. */
  @Column({ type: 'integer', default: 1 })
  generation!: number;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column({ type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
